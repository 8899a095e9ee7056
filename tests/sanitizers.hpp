// Which sanitizer a test runs under, for the few tests that must do less there (each says why):
// g++ tells with __SANITIZE_THREAD__ and __SANITIZE_ADDRESS__, clang only with __has_feature.
#pragma once

namespace qprof::test {

#if defined(__has_feature)
#define QPROF_TEST_HAS_FEATURE(feature) __has_feature(feature)
#else
#define QPROF_TEST_HAS_FEATURE(feature) 0
#endif

#if defined(__SANITIZE_THREAD__) || QPROF_TEST_HAS_FEATURE(thread_sanitizer)
inline constexpr bool kThreadSanitizer = true;
#else
inline constexpr bool kThreadSanitizer = false;
#endif

#if defined(__SANITIZE_ADDRESS__) || QPROF_TEST_HAS_FEATURE(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif

#undef QPROF_TEST_HAS_FEATURE

inline constexpr bool kSanitized = kThreadSanitizer || kAddressSanitizer;

}  // namespace qprof::test
