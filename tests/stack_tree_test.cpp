// The trace merged by call path (reporters/stack_tree.hpp), which folded and flame graphs
// draw.
#include "stack_tree.hpp"

#include <catch2/catch.hpp>
#include <thread>

#include "test_support.hpp"

namespace {

using qprof::detail::FrameKind;
using qprof::detail::StackFrame;
using qprof::detail::StackOptions;
using qprof::detail::StackTree;

void type_of(int id) {
    PROFILE_QUERY(type_of, id);
    if (id > 0) {
        PROFILE_QUERY_HIT(type_of, id - 1);
    }
}

void typeck(int id) {
    PROFILE_QUERY(typeck, id);
    type_of(id);
    type_of(id + 1);
}

// Every frame as "path total/self/count", the path's names joined by ';'.
std::vector<std::string> lines(const StackTree& tree) {
    std::vector<std::string> out;
    for (std::uint32_t f = 0; f < tree.frames().size(); ++f) {
        std::string line;
        for (std::uint32_t step : tree.path(f)) {
            line += (line.empty() ? "" : ";") + tree.frames()[step].name;
        }
        const StackFrame& frame = tree.frames()[f];
        line += " " + std::to_string(frame.total_ns / 1'000'000) + "/" +
                std::to_string(frame.self_ns / 1'000'000) + "/" + std::to_string(frame.count);
        out.push_back(line);
    }
    return out;
}

qprof::Trace two_threads(bool keys) {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = keys;
    return qprof::test::trace_of(  // every clock read advances 1 ms
        [] {
            {
                PROFILE_ACTIVITY("analysis");
                typeck(1);
                typeck(1);
            }
            std::thread{[] {
                qprof::name_this_thread("worker");
                typeck(2);
            }}.join();
        },
        options);
}

}  // namespace

TEST_CASE("stacks: one frame per distinct path, with count, total and self time") {
    const StackTree tree{two_threads(false), StackOptions{}};
    // typeck: 2 reads of its own + 2 per type_of = 6 reads, 5 ms; type_of: 1 ms each.
    CHECK(lines(tree) == std::vector<std::string>{
                             "main 13/0/1",
                             "main;analysis 13/3/1",
                             "main;analysis;typeck 10/6/2",
                             "main;analysis;typeck;type_of 4/4/4",
                             "worker 5/0/1",
                             "worker;typeck 5/3/1",
                             "worker;typeck;type_of 2/2/2",
                         });
}

TEST_CASE("stacks: threads merged, hits as frames, keys in names") {
    const qprof::Trace trace = two_threads(true);
    const StackTree merged{trace, StackOptions{true, false, false}};
    CHECK(lines(merged) == std::vector<std::string>{
                               "all threads 18/0/2",
                               "all threads;analysis 13/3/1",
                               "all threads;analysis;typeck 10/6/2",
                               "all threads;analysis;typeck;type_of 4/4/4",
                               "all threads;typeck 5/3/1",
                               "all threads;typeck;type_of 2/2/2",
                           });
    const StackTree hits{trace, StackOptions{false, true, false}};
    const auto& frames = hits.frames();
    const auto hit = std::find_if(frames.begin(), frames.end(),
                                  [](const StackFrame& f) { return f.kind == FrameKind::hit; });
    REQUIRE(hit != frames.end());
    CHECK(hit->name == "type_of");
    CHECK(hit->total_ns == 0);
    CHECK(hit->count == 4);  // type_of(1) and type_of(2) twice on main
    const StackTree keyed{trace, StackOptions{false, false, true}};
    CHECK(lines(keyed)[2] == "main;analysis;typeck(1) 10/6/2");
    CHECK(lines(keyed)[3] == "main;analysis;typeck(1);type_of(1) 2/2/2");
}
