// Report files: absolute paths, names per process, no file ever overwritten or written
// through a link, the private fallback directory, and what the messages say.
#include "report_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>

#include "raw_writer.hpp"
#include "report_writer.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using qprof::test::read_file;
using qprof::test::TempDir;

namespace {

void write_text(const fs::path& path, const std::string& text) { std::ofstream{path} << text; }
}  // namespace

TEST_CASE("a name pattern expands %n, %p, %t and %%, and refuses anything else") {
    const std::time_t start = 0;
    CHECK(qprof::detail::expand_name_pattern("%n-%p", "cc1", 42, start) == "cc1-42");
    CHECK(qprof::detail::expand_name_pattern("100%%", "cc1", 42, start) == "100%");
    CHECK_THAT(qprof::detail::expand_name_pattern("%t", "cc1", 42, start),
               Catch::Matches("[0-9]{8}-[0-9]{6}"));
    CHECK_THROWS_WITH(qprof::detail::expand_name_pattern("run-%x", "cc1", 42, start),
                      Catch::StartsWith("'%x' is not one of %n"));
    CHECK_THROWS_WITH(qprof::detail::expand_name_pattern("a/%n", "cc1", 42, start),
                      Catch::Contains("not a file name"));
}

TEST_CASE("-Z profile-queries-name names the files; a bad pattern is a FlagError") {
    TempDir dir;
    std::string dir_flag = "-Zprofile-queries-dir=" + dir.path().string();
    char program[] = "prog";
    char name[] = "-Zprofile-queries-name=run-%p";
    char profile[] = "-Zprofile-queries=counts";
    char* argv[] = {program, profile, dir_flag.data(), name, nullptr};
    int argc = 4;
    {
        qprof::Session session{argc, argv};
        { PROFILE_QUERY(named_query); }
    }
    const fs::path counts = dir.path() / ("run-" + std::to_string(::getpid()) + ".counts.txt");
    CHECK(read_file(counts).starts_with("named_query,1,"));

    char bad[] = "-Zprofile-queries-name=%q";
    char* bad_argv[] = {program, bad, nullptr};
    int bad_argc = 2;
    CHECK_THROWS_WITH(qprof::parse_flags(bad_argc, bad_argv, nullptr),
                      Catch::Contains("'%q' is not one of"));
}

TEST_CASE("the output directory is resolved at the start: a chdir does not move the reports") {
    TempDir dir;
    TempDir elsewhere;
    const fs::path before = fs::current_path();
    fs::current_path(dir.path());
    qprof::SessionOptions options = qprof::test::recording_options();
    options.profile_queries = true;
    options.reporters = {"counts"};
    options.output_dir = "out";
    std::vector<std::string> written;
    {
        qprof::Session session{options};
        { PROFILE_QUERY(before_chdir); }
        fs::current_path(elsewhere.path());  // as a program given -C DIR does
        session.finish();
        written = session.written_files();
    }
    fs::current_path(before);
    REQUIRE(written.size() == 1);
    CHECK(written[0] == (dir.path() / "out" / "profile_queries.counts.txt").string());
    CHECK(fs::path(written[0]).is_absolute());
    CHECK(fs::exists(written[0]));
    CHECK_FALSE(fs::exists(elsewhere.path() / "out"));
}

TEST_CASE("a report never overwrites another's file, nor writes through a planted link") {
    TempDir dir;
    TempDir victim_dir;
    const fs::path victim = victim_dir.path() / "victim";
    write_text(victim, "precious");
    write_text(dir.path() / "profile_queries.counts.txt", "another run's counts\n");
    fs::create_symlink(victim, dir.path() / "profile_queries.html");
    qprof::SessionOptions options = qprof::test::recording_options();
    options.profile_queries = true;
    options.reporters = {"counts", "html"};
    options.output_dir = dir.path().string();
    {
        qprof::Session session{options};
        { PROFILE_QUERY(clashing); }
    }
    CHECK(read_file(dir.path() / "profile_queries.counts.txt") == "another run's counts\n");
    CHECK(read_file(victim) == "precious");
    const std::string unique = "profile_queries-" + std::to_string(::getpid());
    CHECK(read_file(dir.path() / (unique + ".counts.txt")).starts_with("clashing,1,"));
    CHECK(fs::exists(dir.path() / (unique + ".html")));
    for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
        CHECK_FALSE(entry.path().filename().string().starts_with("."));  // no temporary left
    }
}

TEST_CASE("a process can start hundreds of sessions into one directory, each with its files") {
    TempDir dir;
    TempDir logs;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.reporters = {"raw", "counts"};
    options.output_dir = dir.path().string();
    constexpr int kSessions = 150;  // more than the attempts one report makes at a free name
    for (int i = 0; i < kSessions; ++i) {
        qprof::test::CapturedStderr quiet{logs.path() / "stderr"};  // each says which name it took
        qprof::Session session{options};
        { PROFILE_QUERY(one_of_many); }
    }
    int streams = 0;
    int counts = 0;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir.path())) {
        const std::string name = entry.path().filename().string();
        streams += name.ends_with(".qprof");
        counts += name.ends_with(".counts.txt");
    }
    CHECK(streams == kSessions);
    CHECK(counts == kSessions);
}

TEST_CASE("-Z profile-queries-inherit=no removes QPROF_FLAGS from the environment") {
    ::setenv("QPROF_FLAGS", "-Z profile-queries=counts -Z profile-queries-inherit=no", 1);
    TempDir dir;
    std::string dir_flag = "-Zprofile-queries-dir=" + dir.path().string();
    char program[] = "prog";
    char* argv[] = {program, dir_flag.data(), nullptr};
    int argc = 2;
    qprof::Session session{argc, argv};
    CHECK(session.recording());
    CHECK(std::getenv("QPROF_FLAGS") == nullptr);
    ::unsetenv("QPROF_FLAGS");
}

TEST_CASE("the fallback directory is private: made by mkdtemp, mode 0700, under TMPDIR") {
    const fs::path& dir = qprof::detail::private_fallback_dir();
    REQUIRE_FALSE(dir.empty());
    struct stat info {};
    REQUIRE(::lstat(dir.c_str(), &info) == 0);
    CHECK(S_ISDIR(info.st_mode));
    CHECK((info.st_mode & 0777) == 0700);
    CHECK(info.st_uid == ::getuid());
    CHECK(dir.filename().string().starts_with("qprof-"));
    CHECK(dir.filename().string() != "qprof-" + std::to_string(::getpid()));  // not predictable
}

TEST_CASE("a directory that cannot hold new directories is not 'No such file or directory'") {
    CHECK_THROWS_WITH(qprof::detail::check_output_dir("/proc/qprof-cannot-write-here"),
                      Catch::Contains("'/proc' does not allow new directories in it") &&
                          !Catch::Contains("No such file or directory"));
    CHECK_THROWS_WITH(qprof::detail::check_output_dir("/proc/qprof-x",
                                                      "Choose a writable directory with '-o DIR'."),
                      Catch::EndsWith("'-o DIR'.") && !Catch::Contains("profile-queries-dir"));
}

// The default directory, '.', is named as the current directory is, so that a message reads
// "cannot write reports to '/home/me/project'", not '/home/me/project/'.
TEST_CASE("the output directory is made absolute without a trailing '/'") {
    const std::filesystem::path here = std::filesystem::current_path();
    CHECK(qprof::detail::absolute_dir(".") == here);
    CHECK(qprof::detail::absolute_dir("") == here);
    CHECK(qprof::detail::absolute_dir("out/./reports/") == here / "out" / "reports");
    CHECK(qprof::detail::absolute_dir("/tmp/x/../y/") == "/tmp/y");
    CHECK(qprof::detail::absolute_dir("/") == "/");
}

TEST_CASE("a raw stream opened by path is created at that path") {
    TempDir dir;
    const std::string path = (dir.path() / "run.qprof").string();
    qprof::detail::RawWriter writer{path, qprof::detail::RawSession{}};
    CHECK(writer.path() == path);
    CHECK(fs::is_regular_file(path));
    CHECK_FALSE(writer.failed());
}

TEST_CASE("a report whose writing fails leaves no file, cut or temporary") {
    TempDir dir;
    qprof::detail::ReportFiles files{dir.path(), "profile_queries"};
    CHECK_THROWS_WITH(files.publish("counts.txt",
                                    [](std::ostream& out) {
                                        out << "half a report";
                                        throw std::runtime_error("reporter failed");
                                    }),
                      "reporter failed");
    CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("reports of a deleted output directory go to the private one, and say so truly") {
    TempDir dir;
    qprof::SessionOptions options = qprof::test::recording_options();
    options.profile_queries = true;
    options.reporters = {"counts"};
    options.output_dir = (dir.path() / "gone").string();
    std::vector<std::string> written;
    {
        qprof::Session session{options};
        { PROFILE_QUERY(orphan); }
        fs::remove_all(dir.path() / "gone");
        session.finish();
        written = session.written_files();
    }
    REQUIRE(written.size() == 1);
    CHECK(fs::path(written[0]).parent_path() == qprof::detail::private_fallback_dir());
    CHECK(read_file(written[0]).starts_with("orphan,1,"));
    CHECK_FALSE(fs::exists(dir.path() / "gone"));
    fs::remove(written[0]);
}
