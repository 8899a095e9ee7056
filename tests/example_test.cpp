// The example compiler as a user runs it: flags, its own arguments, and counts.txt.

#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "test_support.hpp"

namespace {

using Run = qprof::test::CommandResult;

Run run_toyc(const std::string& arguments, const qprof::test::TempDir& dir) {
    Run run = qprof::test::run_command(std::string(QPROF_TOYC) + " " + arguments, dir);
    REQUIRE_FALSE(run.signaled);
    return run;
}

}  // namespace

TEST_CASE("toyc -Z profile-queries writes counts.txt sorted by duration and says where") {
    qprof::test::TempDir dir;
    const Run run = run_toyc(
        "--items 300 -Z profile-queries -Z profile-queries-dir=" + dir.path().string(), dir);
    REQUIRE(run.status == 0);
    const std::filesystem::path counts = dir.path() / "profile_queries.counts.txt";
    CHECK_THAT(run.err, Catch::Contains("wrote " + counts.string()));

    std::istringstream lines{qprof::test::read_file(counts)};
    // An activity's row has a fourth field, its CPU time.
    const std::regex row{R"(([^,]+),([0-9]+),([0-9]+\.[0-9]{3})(,[0-9]+\.[0-9]{3})?)"};
    std::vector<double> durations;
    std::vector<std::string> providers;
    std::vector<double> argument_durations;  // the codegen unit's rows per argument, under it
    for (std::string line; std::getline(lines, line);) {
        std::smatch match;
        REQUIRE(std::regex_match(line, match, row));
        if (std::string{match[1]}.starts_with("codegen unit(")) {
            REQUIRE(providers.back() == "codegen unit");
            argument_durations.push_back(std::stod(match[3]));
            CHECK(argument_durations.back() <= durations.back());
            continue;
        }
        providers.push_back(match[1]);
        durations.push_back(std::stod(match[3]));
    }
    CHECK(std::is_sorted(durations.rbegin(), durations.rend()));
    CHECK(argument_durations.size() == 2);  // two codegen units
    CHECK(std::is_sorted(argument_durations.rbegin(), argument_durations.rend()));
    for (const char* provider : {"parse", "type_of", "typeck", "borrowck", "codegen"}) {
        CHECK(std::find(providers.begin(), providers.end(), provider) != providers.end());
    }
}

TEST_CASE("toyc sees its own arguments after the session took the -Z flags") {
    qprof::test::TempDir dir;
    const Run run = run_toyc(
        "--items 10 -Z profile-queries -Z profile-queries-dir=" + dir.path().string(), dir);
    CHECK(run.status == 0);
    CHECK_THAT(run.out, Catch::Contains("compiled 10 items"));
}

TEST_CASE("toyc -Z profile-querys stops with the nearest flag") {
    qprof::test::TempDir dir;
    const Run run = run_toyc("-Z profile-querys", dir);
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Catch::Contains("unknown flag '-Z profile-querys'. Did you mean "
                                        "'-Z profile-queries'?"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "profile_queries.counts.txt"));
}

TEST_CASE("toyc -Z help lists the profiler's flags and exits successfully") {
    qprof::test::TempDir dir;
    const Run run = run_toyc("-Z help", dir);
    CHECK(run.status == 0);
    CHECK_THAT(run.out, Catch::Contains("-Z profile-queries[=REPORTER,...]") &&
                            Catch::Contains("profile_queries.counts.txt"));
}

TEST_CASE("toyc -Z profile-queries-and-keys shows keys; -Z profile-queries does not") {
    qprof::test::TempDir with_keys;
    const Run keyed = run_toyc("--items 300 -Z profile-queries-and-keys -Z profile-queries-dir=" +
                                   with_keys.path().string(),
                               with_keys);
    INFO("toyc's stderr:\n" << keyed.err);  // a sanitizer's report, if one ended it
    REQUIRE(keyed.status == 0);
    const std::string keys = qprof::test::read_file(with_keys.path() / "profile_queries.keys.txt");
    CHECK_THAT(keys, Catch::StartsWith("# provider\tkey\tcount\thits\ttotal_s\tself_s\n") &&
                         Catch::Contains("\ntype_of\tDefId{0, ") &&
                         Catch::Contains("\ntypeck\tDefId{0, "));

    qprof::test::TempDir without_keys;
    const Run plain = run_toyc(
        "--items 300 -Z profile-queries -Z profile-queries-dir=" + without_keys.path().string(),
        without_keys);
    REQUIRE(plain.status == 0);
    CHECK_FALSE(std::filesystem::exists(without_keys.path() / "profile_queries.keys.txt"));
    CHECK(plain.out == keyed.out);  // the same compilation either way
}
