#include "test_support.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

namespace qprof::test {

namespace {

std::atomic<std::uint64_t> g_manual_now{0};
std::atomic<std::uint64_t> g_manual_step{0};

std::uint64_t manual_now() { return g_manual_now.fetch_add(g_manual_step) + g_manual_step; }

void append_node(const Trace& trace, const ThreadTrace& thread, std::uint32_t index,
                 std::string& text) {
    const Node& node = thread.nodes[index];
    if (node.outcome == Outcome::hit) {
        text += '+';
    }
    if (node.outcome == Outcome::activity) {
        text += '@';
    }
    if (node.unfinished) {
        text += '?';
    }
    text += trace.sites[node.site].provider;
    const std::vector<std::uint32_t> children = thread.children(index);
    if (!children.empty()) {
        text += '(';
        for (std::size_t i = 0; i < children.size(); ++i) {
            if (i > 0) {
                text += ' ';
            }
            append_node(trace, thread, children[i], text);
        }
        text += ')';
    }
}

}  // namespace

ManualClock::ManualClock(std::uint64_t step_ns) {
    g_manual_now = 0;
    g_manual_step = step_ns;
    detail::set_manual_clock(manual_now);
    // Half the manual time, read without moving it: activities' CPU times are exact and below
    // their wall times.
    detail::set_manual_cpu_clock(+[] { return g_manual_now.load() / 2; });
}

ManualClock::~ManualClock() {
    detail::set_manual_clock(nullptr);
    detail::set_manual_cpu_clock(nullptr);
}

TempDir::TempDir() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("qprof-test-" + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

namespace {
void traced_def_span(int id) { PROFILE_QUERY(def_span, id); }
}  // namespace

void traced_type_of(int id) {
    PROFILE_QUERY(type_of, id);
    if (id > 0) {
        PROFILE_QUERY_HIT(def_span, id);
        traced_type_of(id - 1);
        traced_def_span(id);
    }
}

SessionOptions recording_options() {
    SessionOptions options;
    options.profile_queries = true;
    options.reporters = {};
    return options;
}

std::string tree_text(const Trace& trace, std::size_t thread) {
    if (thread >= trace.threads.size()) {
        return "<no thread " + std::to_string(thread) + ">";
    }
    const ThreadTrace& tree = trace.threads[thread];
    std::string text;
    const std::vector<std::uint32_t> roots = tree.roots();
    for (std::size_t i = 0; i < roots.size(); ++i) {
        if (i > 0) {
            text += ' ';
        }
        append_node(trace, tree, roots[i], text);
    }
    return text;
}

const ProviderTotals& totals_of(const Trace& trace, const std::string& provider) {
    for (const ProviderTotals& totals : trace.providers) {
        if (totals.provider == provider) {
            return totals;
        }
    }
    FAIL("no provider named " << provider);
    throw std::logic_error("unreachable");
}

std::string read_file(const std::filesystem::path& path) {
    std::ifstream file{path, std::ios::binary};
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::vector<unsigned char> read_bytes(const std::filesystem::path& path) {
    std::ifstream file{path, std::ios::binary};
    std::vector<unsigned char> bytes(std::filesystem::file_size(path));
    file.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    REQUIRE(static_cast<std::size_t>(file.gcount()) == bytes.size());
    return bytes;
}

std::vector<std::string> keyed_nodes(const Trace& trace, std::size_t thread) {
    std::vector<std::string> texts;
    const ThreadTrace& tree = trace.threads.at(thread);
    for (std::uint32_t node = 0; node < tree.nodes.size(); ++node) {
        std::string text = trace.sites[tree.nodes[node].site].provider;
        const std::string_view key = trace.key_of(tree, node);
        texts.push_back(key.empty() ? text : text + "[" + std::string(key) + "]");
    }
    return texts;
}

std::size_t count_of(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
        ++count;
    }
    return count;
}

CapturedStderr::CapturedStderr(std::filesystem::path file)
    : saved_(::dup(2)), file_(std::move(file)) {
    std::fflush(stderr);
    const int fd = ::open(file_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ::dup2(fd, 2);
    ::close(fd);
}

CapturedStderr::~CapturedStderr() { restore(); }

std::string CapturedStderr::text() {
    restore();
    return read_file(file_);
}

void CapturedStderr::restore() {
    if (saved_ >= 0) {
        std::fflush(stderr);
        ::dup2(saved_, 2);
        ::close(saved_);
        saved_ = -1;
    }
}

CommandResult run_command(const std::string& command, const TempDir& dir) {
    const std::filesystem::path out = dir.path() / ".stdout";
    const std::filesystem::path err = dir.path() / ".stderr";
    const int status = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
    CommandResult result;
    result.signaled = WIFSIGNALED(status);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = read_file(out);
    result.err = read_file(err);
    return result;
}

std::string decompress_with_python(const std::string& packed, const std::string& container) {
    const TempDir dir;
    const std::filesystem::path file = dir.path() / "packed";
    std::ofstream{file, std::ios::binary} << packed;
    const CommandResult run = run_command(
        "python3 -c 'import base64, gzip, sys, zlib; data = open(sys.argv[1], \"rb\").read(); "
        "c = sys.argv[2]; data = base64.b64decode(data, validate=True) if c.startswith(\"base64\") "
        "else data; sys.stdout.buffer.write(gzip.decompress(data) if c == \"gzip\" else "
        "zlib.decompress(data))' " +
            file.string() + " " + container,
        dir);
    INFO(run.err);
    REQUIRE(run.status == 0);
    return run.out;
}

std::string report_text(const std::string& name, const Trace& trace, const ReportOptions& options) {
    std::unique_ptr<Reporter> reporter = make_reporter(name);
    REQUIRE(reporter);
    reporter->configure(options);
    std::ostringstream out;
    reporter->write(trace, out);
    return out.str();
}

std::string without_viewer(std::string page) {
    const std::pair<std::string, std::string> elements[] = {
        {"<style id=\"qprof-style\">", "</style>"}, {"<script id=\"qprof-viewer\">", "</script>"}};
    for (const auto& [open, close] : elements) {
        const std::size_t start = page.find(open);
        REQUIRE(start != std::string::npos);
        const std::size_t body = start + open.size();
        const std::size_t end = page.find(close, body);
        REQUIRE(end != std::string::npos);
        page.replace(body, end - body, "(viewer)");
    }
    return page;
}

std::filesystem::path test_source_file(const std::string& relative) {
    return std::filesystem::path{QPROF_GOLDEN_DIR}.parent_path() / relative;
}

void check_golden(const std::string& received, const std::string& golden) {
    const std::string approved = read_file(std::filesystem::path{QPROF_GOLDEN_DIR} / golden);
    REQUIRE_FALSE(approved.empty());
    if (received != approved) {
        std::string name = golden;
        name.replace(name.find(".approved."), 10, ".received.");
        std::ofstream{name, std::ios::binary} << received;
        FAIL_CHECK("differs from tests/golden/" << golden << "; see " << name << " in "
                                                << std::filesystem::current_path().string());
    }
}

}  // namespace qprof::test
