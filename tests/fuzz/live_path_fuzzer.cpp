// libFuzzer target for the live recording path: the input is a program of sessions, scopes,
// hits, keys of every kind (formatters that record queries or throw among them), Query calls
// with invalidation, thread names and threads. Every event it records must reach the trace.
// Run it with scripts/run-fuzz live_path_fuzzer.
#include <fuzzer/FuzzedDataProvider.h>
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <qprof/query.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Name {  // a key formatted when recorded (it owns a string)
    std::string text;
};
struct Id {  // a key kept as bytes, formatted by the collector
    std::uint32_t value;
};

constexpr int kMaxDepth = 40;
constexpr int kMaxOps = 4000;

}  // namespace

template <>
struct qprof::KeyFormatter<Name> {
    static void format(std::string& out, const Name& name) {
        if (name.text.starts_with("!")) {
            throw std::runtime_error("unknown name");
        }
        if (name.text.starts_with("?")) {
            PROFILE_QUERY_HIT(spelling_of, Name{name.text.substr(1)});  // a query keyed alike
        }
        out += name.text;
    }
};

template <>
struct qprof::KeyFormatter<Id> {
    static void format(std::string& out, const Id& id) {
        if (id.value % 7 == 3) {
            throw std::out_of_range("no such id");
        }
        qprof::format_key(out, id.value);
    }
};

namespace {

// Runs operations until the input says to close the current scope; returns events recorded.
class Program {
  public:
    explicit Program(FuzzedDataProvider& input) : input_(input) {}

    std::uint64_t run(int depth) {
        std::uint64_t events = 0;
        while (input_.remaining_bytes() > 0 && ops_++ < kMaxOps) {
            switch (input_.ConsumeIntegralInRange<int>(0, 10)) {
                case 0:
                    return events;  // close this scope
                case 1:
                    if (depth < kMaxDepth) {
                        PROFILE_QUERY(scope, input_.ConsumeIntegral<std::uint32_t>());
                        events += 1 + run(depth + 1);
                    }
                    break;
                case 2:
                    PROFILE_QUERY_HIT(hit_by_id, Id{input_.ConsumeIntegral<std::uint32_t>()});
                    ++events;
                    break;
                case 3:
                    PROFILE_QUERY_HIT(hit_by_name, Name{input_.ConsumeRandomLengthString(12)});
                    ++events;
                    break;
                case 4:
                    if (depth < kMaxDepth) {
                        PROFILE_QUERY_LOAD(load, Name{input_.ConsumeRandomLengthString(12)});
                        events += 1 + run(depth + 1);
                    }
                    break;
                case 5: {
                    PROFILE_ACTIVITY("activity");
                    ++events;
                    break;
                }
                case 6:
                    events += ask(input_.ConsumeIntegralInRange<int>(0, 8),
                                  input_.ConsumeFloatingPoint<double>());
                    break;
                case 7:
                    lengths_.invalidate(input_.ConsumeIntegralInRange<int>(0, 8));
                    break;
                case 8:
                    qprof::name_this_thread(input_.ConsumeRandomLengthString(20));
                    break;
                case 9:
                    PROFILE_QUERY_HIT(hit_by_tuple, input_.ConsumeIntegral<int>(),
                                      std::string(input_.ConsumeRandomLengthString(6)));
                    ++events;
                    break;
                case 10:  // sizes and counters are not events
                    qprof::record_size("size", input_.ConsumeIntegral<std::uint64_t>());
                    qprof::counter("counter", input_.ConsumeIntegral<std::int64_t>());
                    break;
            }
        }
        return events;
    }

    // Events two Query calls record: a hit or a miss each, none for a refused NaN key.
    std::uint64_t ask(int small, double key) {
        lengths_(small);
        try {
            rounded_(key);
            return 2;
        } catch (const std::invalid_argument&) {
            return 1;  // NaN: refused before anything was recorded
        }
    }

  private:
    FuzzedDataProvider& input_;
    int ops_ = 0;
    qprof::Query<int, int> lengths_{"lengths", [](const int& n) { return n * 2; }};
    qprof::Query<double, long> rounded_{"rounded", [](const double& x) {
                                            return static_cast<long>(x > 1e18 || x < -1e18 ? 0 : x);
                                        }};
};

const std::string& output_dir() {
    static const std::string dir = [] {
        char path[] = "/tmp/qprof-live-fuzz.XXXXXX";
        return std::string(::mkdtemp(path) != nullptr ? path : ".");
    }();
    return dir;
}

qprof::SessionOptions options_from(FuzzedDataProvider& input) {
    qprof::SessionOptions options;
    options.profile_queries = true;
    options.record_keys = input.ConsumeBool();
    options.reporters = {};
    if (input.ConsumeBool()) {
        options.reporters = {"raw", "counts"};
    }
    options.output_dir = output_dir();
    return options;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider input{data, size};
    const int sessions = input.ConsumeIntegralInRange<int>(1, 3);
    for (int s = 0; s < sessions && input.remaining_bytes() > 0; ++s) {
        qprof::Session session{options_from(input)};
        Program program{input};
        std::uint64_t events = program.run(0);
        if (input.ConsumeBool()) {  // a thread that records and ends before the session
            const std::size_t take = input.ConsumeIntegralInRange<std::size_t>(0, 256);
            const std::vector<std::uint8_t> bytes = input.ConsumeBytes<std::uint8_t>(take);
            std::uint64_t thread_events = 0;
            std::thread{[&] {
                FuzzedDataProvider thread_input{bytes.data(), bytes.size()};
                Program thread_program{thread_input};
                thread_events = thread_program.run(0);
            }}.join();
            events += thread_events;
        }
        session.finish();
        // qprof never overwrites a report: clear them, or every run adds files to the directory.
        std::error_code ignored;
        for (const auto& entry : std::filesystem::directory_iterator{output_dir(), ignored}) {
            std::filesystem::remove(entry.path(), ignored);
        }
        // Formatters recorded hits of their own: never fewer events than the program made.
        if (session.trace().events < events) {
            std::abort();
        }
    }
    return 0;
}
