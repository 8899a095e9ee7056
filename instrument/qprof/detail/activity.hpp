// An activity (a pass that is not a query): a timed scope that also records the thread CPU
// time it took, so that a pass that waits shows its wall time well above its CPU time.
//
//   ActivityGuard pass{site};                                  // PROFILE_ACTIVITY("parsing")
//   ActivityGuard unit{site, [&](auto&& use) { use(name); }};  // PROFILE_ACTIVITY_ARG
//
// The thread's CPU clock (clock_gettime(CLOCK_THREAD_CPUTIME_ID), tens of nanoseconds) is read
// at entry and exit, and only while recording: activities are few, so it costs what a provider
// scope could not afford. The cpu record comes right after the activity's record, in the same
// reservation, so both are in one chunk.
#pragma once

#include <qprof/detail/clock.hpp>
#include <qprof/detail/scope_guard.hpp>
#include <utility>

namespace qprof::detail {

class ActivityGuard {
  public:
    explicit ActivityGuard(Site& site)
        : scope_{site, RecordKind::activity}, cpu_start_{start_cpu()} {}
    // With an argument, taken while recording: argument(use) calls use(the argument), which
    // becomes the activity's key (key_record.hpp).
    template <typename ArgumentFn>
    ActivityGuard(Site& site, ArgumentFn&& argument)
        : scope_{site, RecordKind::activity, std::forward<ArgumentFn>(argument)},
          cpu_start_{start_cpu()} {}
    ~ActivityGuard() {
        if (scope_.recording()) {
            scope_.finish<true>(thread_cpu_ns() - cpu_start_);
            scope_.head_ = 0;  // written: the scope's own end does nothing
        }
    }
    ActivityGuard(const ActivityGuard&) = delete;
    ActivityGuard& operator=(const ActivityGuard&) = delete;
    ActivityGuard(ActivityGuard&&) = delete;
    ActivityGuard& operator=(ActivityGuard&&) = delete;

  private:
    std::uint64_t start_cpu() const { return scope_.recording() ? thread_cpu_ns() : 0; }

    ScopeGuard scope_;
    std::uint64_t cpu_start_;
};

}  // namespace qprof::detail
