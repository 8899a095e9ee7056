// Included first by every public qprof header: below C++20 it stops the translation unit with
// one message that says what to do, and the header that included it skips its body (wrapped in
// #if QPROF_DETAIL_CXX20), so that no other error follows. MSVC reports its real standard only
// in _MSVC_LANG.
#pragma once

#if defined(_MSVC_LANG) && _MSVC_LANG > __cplusplus
#define QPROF_DETAIL_CXX_STANDARD _MSVC_LANG
#else
#define QPROF_DETAIL_CXX_STANDARD __cplusplus
#endif

#if QPROF_DETAIL_CXX_STANDARD >= 202002L
#define QPROF_DETAIL_CXX20 1
#else
#define QPROF_DETAIL_CXX20 0
// One line, so that the compiler shows the whole message.
// clang-format off
#error "qprof needs C++20, and this file is compiled as an older C++. Compile it with -std=c++20 (CMake: target_link_libraries(app qprof::qprof) or CMAKE_CXX_STANDARD 20; Meson: cpp_std=c++20; MSVC: /std:c++20)."
// clang-format on
#endif
