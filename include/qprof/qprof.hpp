// qprof: a precise profiler for query-based programs.
//
//   #include <qprof/qprof.hpp>
//
//   Ty Ctx::type_of(DefId id) {
//       if (auto it = cache_.find(id); it != cache_.end()) {
//           PROFILE_QUERY_HIT(type_of, id);   // one 8-byte event, no clock read
//           return it->second;
//       }
//       PROFILE_QUERY(type_of, id);           // times the provider until the end of the scope
//       ...                                   // queries made here become its children
//   }
//
//   int main(int argc, char** argv) {
//       qprof::Session session{argc, argv};   // run with -Z profile-queries
//       PROFILE_ACTIVITY("parsing");          // a pass, shown as a phase
//       PROFILE_ACTIVITY_ARG("codegen unit", unit);   // a pass per unit, told apart by it
//       PROFILE_QUERY_CLASS(compile_loop, "jit", id); // coloured by its class in the reports
//       ...
//       PROFILE_WAIT("join workers");         // waiting for other threads: not work
//       PROFILE_REGION("dispatch");           // a phase that ends where the next begins
//       qprof::record_size("object file", bytes);    // summed per name
//       qprof::counter("live nodes", live);          // a time series per thread
//   }
//
// The key arguments are evaluated only while keys are recorded (-Z profile-queries-and-keys),
// an activity's argument only while recording.
// Building with -Dprofiling=disabled (or defining QPROF_ENABLED
// to 0 before including this header) turns every macro into nothing.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <qprof/config.hpp>
#include <qprof/detail/measure.hpp>
#include <qprof/detail/region.hpp>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <qprof/trace.hpp>

#ifndef QPROF_ENABLED
#define QPROF_ENABLED QPROF_CONFIG_PROFILING
#endif

#define QPROF_CONCAT_INNER(a, b) a##b
#define QPROF_CONCAT(a, b) QPROF_CONCAT_INNER(a, b)

namespace qprof::detail {
// Never defined: names the key arguments in an unevaluated context, so they are checked
// and count as used, and cost nothing.
template <typename... Keys>
char keys_unused(const Keys&...);
}  // namespace qprof::detail

#define QPROF_KEYS_UNUSED(...) (void)sizeof(::qprof::detail::keys_unused(__VA_ARGS__))

namespace qprof {
// Regions (qprof/detail/region.hpp): enter_region("loop0") ends the region open here, if any,
// and starts loop0; exit_region() ends it; so do the thread's end and the session's. The
// functions record whenever a session records; PROFILE_REGION compiles out with the macros.
using detail::enter_region;
using detail::exit_region;
// Sizes and counters (qprof/detail/measure.hpp): record_size("object file", bytes) is summed
// per name over the run; counter("live nodes", value) is a time series per thread. Both record
// only while a session records; PROFILE_SIZE and PROFILE_COUNTER compile out with the macros.
using detail::counter;
using detail::record_size;
}  // namespace qprof

#if QPROF_ENABLED

#include <qprof/detail/activity.hpp>
#include <qprof/detail/key_record.hpp>
#include <qprof/detail/recorder.hpp>
#include <qprof/detail/scope_guard.hpp>

// The key arguments, evaluated only while keys are recorded, and used within the same
// full-expression: a temporary key lives until the key is recorded, and is never copied.
#define QPROF_KEY_FN(...) \
    [&](auto&& qprof_use_key) { qprof_use_key(::qprof::detail::make_key(__VA_ARGS__)); }

#define QPROF_SCOPE_IMPL(id, name, site_kind, record_kind, ...) \
    QPROF_CLASSED_SCOPE_IMPL(id, name, nullptr, site_kind, record_kind __VA_OPT__(, ) __VA_ARGS__)

// The same with a colour class: a string literal, or nullptr for none.
#define QPROF_CLASSED_SCOPE_IMPL(id, name, colour_class, site_kind, record_kind, ...)        \
    static constinit ::qprof::detail::Site QPROF_CONCAT(id, _site){                          \
        name, __FILE__, __LINE__, ::qprof::detail::SiteKind::site_kind, colour_class};       \
    const ::qprof::detail::ScopeGuard QPROF_CONCAT(id, _guard) {                             \
        QPROF_CONCAT(id, _site),                                                             \
            ::qprof::detail::RecordKind::record_kind __VA_OPT__(, QPROF_KEY_FN(__VA_ARGS__)) \
    }

#define QPROF_ACTIVITY_IMPL(id, name, ...) \
    QPROF_CLASSED_ACTIVITY_IMPL(id, name, nullptr __VA_OPT__(, ) __VA_ARGS__)

#define QPROF_CLASSED_ACTIVITY_IMPL(id, name, colour_class, ...)                      \
    static constinit ::qprof::detail::Site QPROF_CONCAT(id, _site){                   \
        name, __FILE__, __LINE__, ::qprof::detail::SiteKind::activity, colour_class}; \
    const ::qprof::detail::ActivityGuard QPROF_CONCAT(id, _guard) {                   \
        QPROF_CONCAT(id, _site) __VA_OPT__(, QPROF_KEY_FN(__VA_ARGS__))               \
    }

#define QPROF_HIT_IMPL(id, name, ...)                                                \
    do {                                                                             \
        static constinit ::qprof::detail::Site id{name, __FILE__, __LINE__,          \
                                                  ::qprof::detail::SiteKind::query}; \
        ::qprof::detail::record_hit(id __VA_OPT__(, QPROF_KEY_FN(__VA_ARGS__)));     \
    } while (0)

// A provider run (a cache miss), timed until the end of the enclosing scope.
#define PROFILE_QUERY(provider, ...)                                            \
    QPROF_SCOPE_IMPL(QPROF_CONCAT(qprof_scope_, __COUNTER__), #provider, query, \
                     miss __VA_OPT__(, ) __VA_ARGS__)
#define PROFILE_QUERY_NAMED(name, ...)                                        \
    QPROF_SCOPE_IMPL(QPROF_CONCAT(qprof_scope_, __COUNTER__), "" name, query, \
                     miss __VA_OPT__(, ) __VA_ARGS__)

// A provider run whose provider carries a colour class, a word the reports colour it by
// ("jit", "codegen"): the class is part of the site's static record, never of an event.
// -Z profile-queries-colour=REGEX:CLASS gives classes by name and overrides this one.
//   PROFILE_QUERY_CLASS(compile_loop, "jit", loop_id);
#define PROFILE_QUERY_CLASS(provider, colour_class, ...)                                          \
    QPROF_CLASSED_SCOPE_IMPL(QPROF_CONCAT(qprof_scope_, __COUNTER__), #provider, "" colour_class, \
                             query, miss __VA_OPT__(, ) __VA_ARGS__)

// A result read from a persistent cache, timed until the end of the enclosing scope.
#define PROFILE_QUERY_LOAD(provider, ...)                                       \
    QPROF_SCOPE_IMPL(QPROF_CONCAT(qprof_scope_, __COUNTER__), #provider, query, \
                     load __VA_OPT__(, ) __VA_ARGS__)
#define PROFILE_QUERY_LOAD_NAMED(name, ...)                                   \
    QPROF_SCOPE_IMPL(QPROF_CONCAT(qprof_scope_, __COUNTER__), "" name, query, \
                     load __VA_OPT__(, ) __VA_ARGS__)

// A cache hit: a leaf with no duration.
#define PROFILE_QUERY_HIT(provider, ...) \
    QPROF_HIT_IMPL(QPROF_CONCAT(qprof_hit_, __COUNTER__), #provider __VA_OPT__(, ) __VA_ARGS__)
#define PROFILE_QUERY_HIT_NAMED(name, ...) \
    QPROF_HIT_IMPL(QPROF_CONCAT(qprof_hit_, __COUNTER__), "" name __VA_OPT__(, ) __VA_ARGS__)

// A pass that is not a query, timed until the end of the enclosing scope, with the thread
// CPU time it took.
#define PROFILE_ACTIVITY(name) \
    QPROF_ACTIVITY_IMPL(QPROF_CONCAT(qprof_activity_, __COUNTER__), "" name)

// A pass with an argument (a file, a module, a codegen unit), so that its runs can be told
// apart: the argument is formatted like a key (key.hpp) and taken only while recording.
//   PROFILE_ACTIVITY_ARG("codegen unit", unit.name);
#define PROFILE_ACTIVITY_ARG(name, ...) \
    QPROF_ACTIVITY_IMPL(QPROF_CONCAT(qprof_activity_, __COUNTER__), "" name, __VA_ARGS__)

// An activity with a colour class (see PROFILE_QUERY_CLASS).
#define PROFILE_ACTIVITY_CLASS(name, colour_class)                                   \
    QPROF_CLASSED_ACTIVITY_IMPL(QPROF_CONCAT(qprof_activity_, __COUNTER__), "" name, \
                                "" colour_class)

// A region: ends the region open here, if any (qprof::enter_region).
#define PROFILE_REGION(name) ::qprof::enter_region(name)
#define PROFILE_REGION_EXIT() ::qprof::exit_region()

// A size, summed per name (qprof::record_size), and a counter's value (qprof::counter).
#define PROFILE_SIZE(name, bytes) ::qprof::record_size(name, bytes)
#define PROFILE_COUNTER(name, value) ::qprof::counter(name, value)

// Waiting, not work: time until the end of the enclosing scope spent waiting for other
// threads (joining workers, a condition variable), recorded as a blocked wait of its own
// provider, so that reports show it as waiting and never as self time of work.
#define PROFILE_WAIT(name) \
    QPROF_SCOPE_IMPL(QPROF_CONCAT(qprof_wait_, __COUNTER__), "" name, query, blocked)

#else  // compiled out: every macro is nothing

#define PROFILE_QUERY(provider, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_NAMED(name, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_CLASS(provider, colour_class, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_LOAD(provider, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_LOAD_NAMED(name, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_HIT(provider, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_QUERY_HIT_NAMED(name, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_ACTIVITY(name) (void)0
#define PROFILE_ACTIVITY_CLASS(name, colour_class) (void)0
#define PROFILE_ACTIVITY_ARG(name, ...) QPROF_KEYS_UNUSED(__VA_ARGS__)
#define PROFILE_WAIT(name) (void)0
#define PROFILE_REGION(name) (void)sizeof(name)
#define PROFILE_REGION_EXIT() (void)0
#define PROFILE_SIZE(name, bytes) QPROF_KEYS_UNUSED(name, bytes)
#define PROFILE_COUNTER(name, value) QPROF_KEYS_UNUSED(name, value)

#endif

#endif  // QPROF_DETAIL_CXX20
