// The qprof tool's progress line, drawn with a fake clock and a fixed width.
#include <catch2/catch.hpp>
#include <sstream>

#include "cli/progress.hpp"

namespace cli = qprof::cli;

namespace {

constexpr std::int64_t kMs = 1'000'000;

// Progress with a string stream, a clock the test moves and a fixed width.
struct FakeTerminal {
    std::ostringstream out;
    std::int64_t now_ns = 0;
    int columns = 75;

    cli::Progress::Terminal terminal() {
        return {&out, [this] { return now_ns; }, [this] { return columns; }};
    }
    std::string take() {
        std::string text = out.str();
        out.str("");
        return text;
    }
};

}  // namespace

TEST_CASE("progress: the line at 45 %") {
    FakeTerminal fake;
    cli::Progress progress{"reading big.qprof", 160'000'000, true, fake.terminal()};
    fake.now_ns = 900 * kMs;
    progress.update(72'000'000);
    CHECK(fake.take() ==
          "\rqprof: reading big.qprof [#########-----------] 45%  72/160 MB  1.1 s left\x1b[K");
}

TEST_CASE("progress: the line fits the terminal") {
    cli::Progress progress{"reading big.qprof", 160'000'000, false};
    CHECK(progress.line(0, 0, 80) ==
          "qprof: reading big.qprof [" + std::string(39, '-') + "] 0%  0/160 MB");
    CHECK(progress.line(160'000'000, 3 * 1'000 * kMs, 200)
              .find("[" + std::string(40, '#') + "] 100%  160/160 MB") !=
          std::string::npos);  // the bar stops growing at 40
    const std::string narrow = progress.line(80'000'000, 2'000 * kMs, 30);
    CHECK(narrow == "qprof: reading big.qprof 50%");
    CHECK(progress.line(80'000'000, 200 * 1'000 * kMs, 120).ends_with("3 min 20 s left"));
    cli::Progress huge{"reading", 12'000'000'000, false};
    CHECK(huge.line(1'500'000'000, 0, 80).ends_with("12%  1.5/12.0 GB"));
}

TEST_CASE("progress: repainted at most every 100 ms") {
    FakeTerminal fake;
    cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
    progress.update(1'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("1%"));
    fake.now_ns = 99 * kMs;
    progress.update(2'000'000);
    CHECK(fake.take().empty());
    fake.now_ns = 100 * kMs;
    progress.update(3'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("3%"));
}

TEST_CASE("progress: clear erases the line and the next update draws it at once") {
    FakeTerminal fake;
    cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
    progress.clear();
    CHECK(fake.take().empty());  // nothing on screen, nothing to erase
    progress.update(1'000'000);
    fake.take();
    progress.clear();
    CHECK(fake.take() == "\r\x1b[K");
    fake.now_ns = 10 * kMs;
    progress.update(2'000'000);
    CHECK_THAT(fake.take(), Catch::Contains("2%"));
    progress.finish();
    CHECK(fake.take() == "\r\x1b[K");
    fake.now_ns = 1'000 * kMs;
    progress.update(3'000'000);
    progress.finish();
    CHECK(fake.take().empty());  // finished for good
}

TEST_CASE("progress: disabled, it writes nothing; destroyed, it erases its line") {
    FakeTerminal fake;
    {
        cli::Progress progress{"reading x", 100'000'000, false, fake.terminal()};
        progress.update(1'000'000);
    }
    CHECK(fake.take().empty());
    {
        cli::Progress progress{"reading x", 100'000'000, true, fake.terminal()};
        progress.update(1'000'000);
        fake.take();
    }
    CHECK(fake.take() == "\r\x1b[K");
}

TEST_CASE("progress: wanted for 16 MiB or more on a terminal, unless turned off") {
    constexpr std::uint64_t kMiB = 1 << 20;
    CHECK(cli::Progress::wanted(16 * kMiB, false, true));
    CHECK_FALSE(cli::Progress::wanted(16 * kMiB - 1, false, true));
    CHECK_FALSE(cli::Progress::wanted(64 * kMiB, true, true));
    CHECK_FALSE(cli::Progress::wanted(64 * kMiB, false, false));
}
