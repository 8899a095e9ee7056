// Key texts that the program's own formatters cannot turn into a crash, a hang or a change
// of control flow: qprof formats keys only to show them, so a formatter that throws, or that
// runs queries which need the text of the very key being formatted, costs a text, never the run.
//
//   const GuardedKeyText key = guarded_key_text(id);   // "DefId{0, 3}", or
//                                                      // "<format error: map::at>" (said once)
//   if (key.final) cache(key.text);                    // false: only this call's stand-in
#pragma once

#include <atomic>
#include <cstdio>
#include <exception>
#include <qprof/key_format.hpp>
#include <string>

namespace qprof::detail {

// Formatters may run queries whose keys are formatted in turn; past this depth the inner key
// gets a stand-in text, so that a formatter needing its own key's text cannot recurse forever.
inline constexpr int kMaxKeyFormatNesting = 8;

// Key formatters running on this thread, innermost last.
inline thread_local int t_key_format_nesting = 0;

struct GuardedKeyText {
    std::string text;
    bool final = true;  // false for a stand-in that a later call may replace by the real text
};

// `<format error: what>`; the first one in the process is also said on stderr.
inline std::string format_error_text(const char* what) {
    static std::atomic<bool> reported{false};
    if (!reported.exchange(true, std::memory_order_relaxed)) {
        std::fprintf(stderr,
                     "qprof: warning: a key formatter threw an exception (%s); the profile shows "
                     "such keys as <format error: ...> and the program goes on (later format "
                     "errors are not reported)\n",
                     what);
    }
    return std::string{"<format error: "} + what + ">";
}

// The key's text, or the text of the error its formatting threw. Enough for a key whose text
// runs none of the program's code (formats_without_user_code), which cannot nest.
template <typename Key>
std::string caught_key_text(const Key& key) {
#if defined(__cpp_exceptions)
    try {
        return qprof::key_text(key);
    } catch (const std::exception& error) {
        return format_error_text(error.what());
    } catch (...) {
        return format_error_text("an exception that is not a std::exception");
    }
#else
    return qprof::key_text(key);  // built with -fno-exceptions: no formatter can throw
#endif
}

template <typename Key>
GuardedKeyText guarded_key_text(const Key& key) {
    if (t_key_format_nesting >= kMaxKeyFormatNesting) {
        return {"<format error: key formatters nested too deeply>", false};
    }
    struct Nesting {
        Nesting() { ++t_key_format_nesting; }
        ~Nesting() { --t_key_format_nesting; }
    } nesting;
    return {caught_key_text(key)};
}

}  // namespace qprof::detail
