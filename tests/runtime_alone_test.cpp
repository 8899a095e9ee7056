// The runtime linked without the reporters layer: tests/meson.build links the hot path and the
// runtime whole and nothing above them, so this program links only while the runtime calls no
// reporter (docs/architecture.md, "The layers, one way"). Its registry then holds what it is
// given: the built-ins listed below (none) and what the program registers.
#include <catch2/catch.hpp>
#include <memory>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <string>
#include <vector>

#include "reporter_registry.hpp"

namespace qprof::detail {

// libqprof's list is reporters/builtin_reporters.cpp, in the layer this program leaves out.
std::span<const BuiltinReporter> builtin_reporters() { return {}; }

}  // namespace qprof::detail

namespace {

class Lines : public qprof::Reporter {
  public:
    std::string_view name() const override { return "lines"; }
    std::string_view description() const override { return "one line per thread"; }
    std::string_view file_suffix() const override { return "lines.txt"; }
    void write(const qprof::Trace& trace, std::ostream& out) override {
        out << trace.threads.size() << '\n';
    }
};

qprof::SessionOptions parse_env(const char* env_flags) {
    char program[] = "runtime_alone";
    char* argv[] = {program, nullptr};
    int argc = 1;
    return qprof::parse_flags(argc, argv, env_flags);
}

}  // namespace

TEST_CASE("without the reporters layer, the registry holds only what the program registers") {
    CHECK(qprof::reporter_names().empty());
    CHECK(qprof::make_reporter("counts") == nullptr);
    CHECK_THROWS_WITH(parse_env("-Z profile-queries=counts"),
                      Catch::Contains("unknown reporter 'counts'"));

    qprof::register_reporter("lines", [] { return std::make_unique<Lines>(); });
    CHECK(qprof::reporter_names() == std::vector<std::string>{"lines"});
    const std::unique_ptr<qprof::Reporter> made = qprof::make_reporter("lines");
    REQUIRE(made != nullptr);
    CHECK(made->file_suffix() == "lines.txt");
    CHECK(parse_env("-Z profile-queries=lines").reporters == std::vector<std::string>{"lines"});
}
