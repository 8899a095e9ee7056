// Fixtures shared by the Query tests: an aggregate key, a two-query cycle, and ways to look
// at exceptions and at the threads of a trace.
#pragma once

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <exception>
#include <functional>
#include <latch>
#include <memory>
#include <qprof/query.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"

namespace qprof::test {

// A plain aggregate: no std::hash, no operator==.
struct DefId {
    std::uint32_t krate;
    std::uint32_t index;
};

// Whether `count` threads came to wait for a result another thread computes. The time limit
// only keeps a broken Query from hanging the test; it is never reached when Query works.
inline bool until_waiting(std::size_t count) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (detail::WaitGraph::instance().waiting_threads() != count) {
        if (std::chrono::steady_clock::now() > give_up) {
            return false;
        }
        std::this_thread::yield();
    }
    return true;
}

inline const qprof::ThreadTrace& thread_named(const qprof::Trace& trace, const std::string& name) {
    for (const qprof::ThreadTrace& thread : trace.threads) {
        if (thread.name == name) {
            return thread;
        }
    }
    FAIL("no thread named " << name);
    throw std::logic_error("unreachable");
}

inline std::vector<qprof::Node> nodes_with(const qprof::ThreadTrace& thread,
                                           qprof::Outcome outcome) {
    std::vector<qprof::Node> found;
    for (const qprof::Node& node : thread.nodes) {
        if (node.outcome == outcome) {
            found.push_back(node);
        }
    }
    return found;
}

inline std::exception_ptr error_of(const std::function<void()>& call) {
    try {
        call();
    } catch (...) {
        return std::current_exception();
    }
    return nullptr;
}

// Read on the thread that joined the others: libstdc++ shares an exception between threads
// through a reference count ThreadSanitizer cannot see, so its last owner is that thread.
inline std::string message_of(const std::exception_ptr& error) {
    try {
        if (error) {
            std::rethrow_exception(error);
        }
    } catch (const std::exception& exception) {
        return exception.what();
    }
    return "<no exception>";
}

inline std::string message_of(const std::function<void()>& call) {
    return message_of(error_of(call));
}

inline bool is_cycle_error(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const qprof::CycleError&) {
        return true;
    } catch (...) {
        return false;
    }
}

// type_of(id) needs generics_of(id), which needs type_of(id) again for index 3.
struct Compiler {
    qprof::Query<DefId, int> type_of{"type_of",
                                     [this](const DefId& id) { return generics_of(id) + 1; }};
    qprof::Query<DefId, int> generics_of{
        "generics_of",
        [this](const DefId& id) { return id.index == 3 ? type_of(id) : int(id.index) * 10; }};
};

}  // namespace qprof::test
