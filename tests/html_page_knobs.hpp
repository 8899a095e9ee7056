// The HTML reporter's knobs for tests: the columns' budget and the size past which columns are
// compressed, each set for a scope and restored after it; the page made with each number of
// the reporter's threads.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "html_parts.hpp"
#include "html_payload_layout.hpp"

namespace qprof::test {

// The size of the columns' text past which hits' keys are left out.
class ColumnsBudget {
  public:
    explicit ColumnsBudget(std::uint64_t bytes) { detail::html::set_columns_budget(bytes); }
    ~ColumnsBudget() {
        detail::html::set_columns_budget(detail::html::layout::kColumnsBudgetBytes);
    }
    ColumnsBudget(const ColumnsBudget&) = delete;
    ColumnsBudget& operator=(const ColumnsBudget&) = delete;
};

// Columns of at most `bytes` are stored (html_parts.hpp, columns_method), larger ones
// compressed.
class StoredColumnsLimit {
  public:
    explicit StoredColumnsLimit(std::uint64_t bytes) {
        detail::html::set_stored_columns_limit(bytes);
    }
    ~StoredColumnsLimit() {
        detail::html::set_stored_columns_limit(detail::html::kStoredColumnsBytes);
    }
    StoredColumnsLimit(const StoredColumnsLimit&) = delete;
    StoredColumnsLimit& operator=(const StoredColumnsLimit&) = delete;
};

// What `make` gives with each number of the reporter's threads allowed, from both of them
// (html_parts.hpp, allow_payload_threads) down to none: the same bytes are expected however the
// page is made.
inline std::vector<std::string> made_with_each_thread_count(
    const std::function<std::string()>& make) {
    std::vector<std::string> made;
    for (const int threads : {2, 1, 0}) {
        detail::html::allow_payload_threads(threads);
        try {
            made.push_back(make());
        } catch (...) {
            detail::html::allow_payload_threads(2);
            throw;
        }
    }
    detail::html::allow_payload_threads(2);
    return made;
}

}  // namespace qprof::test
