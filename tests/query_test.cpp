// qprof::Query on one thread: memoization, the outcomes it records (hit, miss, load), cycles,
// invalidation, and keys.
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>

#include "query_test_support.hpp"

using qprof::CycleError;
using qprof::Outcome;
using qprof::Query;
using qprof::Session;
using namespace qprof::test;

TEST_CASE("n calls over k distinct keys give k misses and n - k hits") {
    constexpr int kCalls = 10;
    constexpr int kKeys = 4;
    int provider_runs = 0;
    Query<int, int> square{"square", [&](const int& n) {
                               ++provider_runs;
                               return n * n;
                           }};
    Session session{recording_options()};
    for (int i = 0; i < kCalls; ++i) {
        CHECK(square(i % kKeys) == (i % kKeys) * (i % kKeys));
    }
    session.finish();

    CHECK(provider_runs == kKeys);
    CHECK(square.size() == kKeys);
    CHECK(square.name() == "square");
    const qprof::ProviderTotals& totals = totals_of(session.trace(), "square");
    CHECK(totals.misses == kKeys);
    CHECK(totals.hits == kCalls - kKeys);
    CHECK(tree_text(session.trace()) ==
          "square square square square +square +square +square "
          "+square +square +square");
}

TEST_CASE("a plain aggregate key works with no user hash or ==") {
    int provider_runs = 0;
    Query<DefId, std::uint32_t> def_index{"def_index", [&](const DefId& id) {
                                              ++provider_runs;
                                              return id.krate * 100 + id.index;
                                          }};
    CHECK(def_index(DefId{0, 3}) == 3);
    CHECK(def_index(DefId{1, 3}) == 103);
    CHECK(def_index(DefId{0, 3}) == 3);
    CHECK(def_index(DefId{3, 0}) == 300);
    CHECK(provider_runs == 3);
    CHECK(def_index.contains(DefId{1, 3}));
    CHECK_FALSE(def_index.contains(DefId{1, 4}));
}

TEST_CASE("a provider calling another query nests it, hits included") {
    Compiler compiler;
    Session session{recording_options()};
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    CHECK(compiler.generics_of(DefId{0, 1}) == 10);
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    session.finish();
    CHECK(tree_text(session.trace()) == "type_of(generics_of) +generics_of +type_of");
}

TEST_CASE("a cycle through two queries throws CycleError naming the path") {
    Compiler compiler;
    CHECK(compiler.type_of(DefId{0, 1}) == 11);
    const std::string expected =
        "cycle detected when computing type_of(DefId{0, 3}) \u2192 generics_of(DefId{0, 3}) "
        "\u2192 type_of(DefId{0, 3})";
    CHECK(message_of([&] { compiler.type_of(DefId{0, 3}); }) == expected);
    CHECK_THROWS_AS(compiler.type_of(DefId{0, 3}), CycleError);

    SECTION("the table is left consistent and the next call fails the same way") {
        CHECK(compiler.type_of.size() == 1);
        CHECK(compiler.generics_of.size() == 1);
        CHECK_FALSE(compiler.type_of.contains(DefId{0, 3}));
        CHECK_FALSE(compiler.generics_of.contains(DefId{0, 3}));
        CHECK(message_of([&] { compiler.type_of(DefId{0, 3}); }) == expected);
        CHECK(message_of([&] {
                  compiler.generics_of(DefId{0, 3});
              }) ==
              "cycle detected when computing generics_of(DefId{0, 3}) \u2192 type_of(DefId{0, 3}) "
              "\u2192 generics_of(DefId{0, 3})");
        CHECK(compiler.type_of(DefId{0, 4}) == 41);
        CHECK(compiler.type_of(DefId{0, 1}) == 11);
        CHECK(compiler.type_of.size() == 2);
    }
    SECTION("scopes unwound by the cycle are closed, and recorded as misses") {
        Session session{recording_options()};
        CHECK_THROWS_AS(compiler.type_of(DefId{0, 3}), CycleError);
        session.finish();
        CHECK(tree_text(session.trace()) == "type_of(generics_of)");
    }
}

TEST_CASE("a query that needs itself throws CycleError with a path of one step") {
    int provider_runs = 0;
    std::function<int(int)> call;
    Query<int, int> self{"self", [&](const int& n) {
                             ++provider_runs;
                             return n == 7 ? call(n) : n;
                         }};
    call = [&](int n) { return self(n); };
    CHECK(self(1) == 1);
    CHECK(message_of([&] { self(7); }) == "cycle detected when computing self(7) \u2192 self(7)");
    CHECK(self.size() == 1);
    CHECK_FALSE(self.contains(7));
    CHECK_THROWS_AS(self(7), CycleError);
    CHECK(provider_runs == 3);
    CHECK(self(2) == 2);
}

TEST_CASE("a loader answers the keys it knows as loads; the provider runs for the others") {
    qprof::test::ManualClock clock;
    std::vector<int> provided;
    int loader_calls = 0;
    Query<int, int> cached{"cached",
                           [&](const int& n) {
                               provided.push_back(n);
                               return n * 2;
                           },
                           [&](const int& n) -> std::optional<int> {
                               ++loader_calls;
                               if (n % 2 == 0) {
                                   return n * 2;
                               }
                               return std::nullopt;
                           }};
    Session session{recording_options()};
    for (int n = 0; n < 4; ++n) {
        CHECK(cached(n) == n * 2);
    }
    CHECK(cached(2) == 4);  // a hit: neither the loader nor the provider runs
    session.finish();

    CHECK(provided == std::vector<int>{1, 3});
    CHECK(loader_calls == 4);
    const qprof::ThreadTrace& thread = session.trace().threads.at(0);
    REQUIRE(thread.nodes.size() == 5);
    CHECK(thread.nodes[0].outcome == Outcome::load);
    CHECK(thread.nodes[1].outcome == Outcome::miss);
    CHECK(thread.nodes[2].outcome == Outcome::load);
    CHECK(thread.nodes[3].outcome == Outcome::miss);
    CHECK(thread.nodes[4].outcome == Outcome::hit);
    const qprof::ProviderTotals& totals = totals_of(session.trace(), "cached");
    CHECK(totals.load_ns > 0);
    CHECK(totals.misses == 2);
    CHECK(totals.hits == 1);
}

TEST_CASE("invalidate, clear, size and contains") {
    int provider_runs = 0;
    Query<std::string, std::size_t> length{"length", [&](const std::string& text) {
                                               ++provider_runs;
                                               return text.size();
                                           }};
    CHECK(length.size() == 0);
    CHECK_FALSE(length.contains("ab"));
    CHECK(length("ab") == 2);
    CHECK(length("abc") == 3);
    CHECK(length.size() == 2);
    CHECK(length.contains("ab"));

    length.invalidate("ab");
    length.invalidate("not cached");
    CHECK_FALSE(length.contains("ab"));
    CHECK(length.contains("abc"));
    CHECK(length.size() == 1);
    CHECK(length("ab") == 2);
    CHECK(provider_runs == 3);

    length.clear();
    CHECK(length.size() == 0);
    CHECK_FALSE(length.contains("abc"));
    CHECK(length("abc") == 3);
    CHECK(provider_runs == 4);
}

namespace {
struct Point {
    double x;
    double y;
};
}  // namespace

TEST_CASE("a key not equal to itself is refused with a clear error, with or without a session") {
    Query<double, int> rounded{"rounded", [](const double& x) { return static_cast<int>(x); }};
    Query<Point, int> quadrant{"quadrant", [](const Point& p) { return p.x < 0 ? 2 : 1; }};
    const bool recording = GENERATE(false, true);
    std::optional<Session> session;
    if (recording) {
        qprof::SessionOptions options = recording_options();
        options.record_keys = true;
        session.emplace(options);
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
        CHECK_THROWS_WITH(rounded(std::nan("")),
                          Catch::Matchers::Contains("query 'rounded' was asked for a key that is "
                                                    "not equal to itself: rounded(nan)") &&
                              Catch::Matchers::Contains("map NaN to one chosen value"));
        CHECK_THROWS_AS(quadrant(Point{1.0, std::nan("")}), std::invalid_argument);
    }
    CHECK(rounded.size() == 0);
    CHECK(quadrant.size() == 0);
    CHECK_FALSE(rounded.contains(std::nan("")));
    CHECK(rounded(2.5) == 2);
    CHECK(quadrant(Point{-1.0, 0.0}) == 2);
    CHECK(rounded.size() == 1);
    if (session) {
        session->finish();
        CHECK(totals_of(session->trace(), "rounded").count == 1);  // the refused calls ran nothing
    }
}

TEST_CASE("with -Z profile-queries-and-keys every Query node carries its key", "[keys]") {
    qprof::SessionOptions options = recording_options();
    options.record_keys = true;
    Compiler compiler;
    Query<std::string, std::size_t> length{
        "length", [](const std::string& text) { return text.size(); },
        [](const std::string& text) -> std::optional<std::size_t> {
            return text == "on disk" ? std::optional<std::size_t>{7} : std::nullopt;
        }};
    Session session{options};
    compiler.type_of(DefId{0, 1});
    compiler.type_of(DefId{0, 1});
    length("on disk");
    length("core::mem");
    session.finish();

    const qprof::Trace& trace = session.trace();
    CHECK(trace.keys_recorded);
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(tree_text(trace) == "type_of(generics_of) +type_of length length");
    CHECK(trace.key_of(thread, 0) == "DefId{0, 1}");  // generics_of
    CHECK(trace.key_of(thread, 1) == "DefId{0, 1}");  // type_of
    CHECK(trace.key_of(thread, 2) == "DefId{0, 1}");  // the hit
    CHECK(thread.nodes[3].outcome == Outcome::load);
    CHECK(trace.key_of(thread, 3) == "on disk");
    CHECK(trace.key_of(thread, 4) == "core::mem");
}

TEST_CASE("without -Z profile-queries-and-keys no key is recorded", "[keys]") {
    Compiler compiler;
    Session session{recording_options()};
    compiler.type_of(DefId{0, 1});
    compiler.type_of(DefId{0, 1});
    session.finish();

    const qprof::Trace& trace = session.trace();
    CHECK_FALSE(trace.keys_recorded);
    const qprof::ThreadTrace& thread = trace.threads.at(0);
    REQUIRE(thread.nodes.size() == 3);
    CHECK(thread.keys.empty());
    CHECK(trace.key_texts.empty());
    for (std::uint32_t node = 0; node < thread.nodes.size(); ++node) {
        CHECK(trace.key_of(thread, node).empty());
    }
}
