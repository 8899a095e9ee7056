// Catch2, precompiled once per sanitizer build for every unit test's files (tests/meson.build).
// Each file still includes <catch2/catch.hpp> itself, so it compiles the same without this.
#include <catch2/catch.hpp>
