// profile_queries.trace.json: the trace in the Chrome Trace Event Format (JSON object form),
// for Perfetto (https://ui.perfetto.dev), the DevTools Performance panel and speedscope. One
// event per line:
//
//   {"traceEvents":[
//   {"name":"process_name","ph":"M","pid":1,"args":{"name":"qprof"}},
//   {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"main"}},
//   {"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":0}},
//   {"name":"typeck","cat":"miss","ph":"X","ts":1.000,"dur":5.000,"pid":1,"tid":1},
//   {"name":"type_of","cat":"hit","ph":"i","s":"t","ts":6.000,"pid":1,"tid":1}
//   ],"displayTimeUnit":"ns","otherData":{"clock":"tsc","wall_ns":7000}}
//
// - Every node but a hit is a complete event ("X"); cat says miss, blocked, load or activity,
//   with ",unfinished" for a scope still open when the session ended and then ",CLASS" for a
//   provider with a colour class (PROFILE_QUERY_CLASS, -Z profile-queries-colour), so that
//   Perfetto and DevTools can filter by it. No args by default:
//   speedscope makes them part of the frame name. With -Z profile-queries-chrome=keys and
//   keys recorded, args.key. An activity's argument (PROFILE_ACTIVITY_ARG) is always there,
//   as args.arg: an activity per unit is what the argument is for. An activity's thread CPU
//   time is "tdur", the format's own field for a thread-clock duration (µs with three
//   decimals, as ts and dur), not an arg that would split its frame. tid is the thread's index + 1,
//   pid its run's index + 1: a merged build has one process per run, named after its program,
//   labelled with its real pid and sorted by start time.
// - ts and dur are microseconds from the session start, written from integer nanoseconds
//   with exactly three decimals, so that a child never pokes out of its parent by rounding.
//   Where ts + dur added in floating point would pass the exact end (and a neighbour starting
//   there would seem to overlap), dur is a nanosecond shorter: see written_end().
// - Per thread, events are in pre-order (a parent before its children, even at the same ts),
//   so they nest strictly and Perfetto draws each thread on one track.
// - With -Z profile-queries-chrome=hits, hits are instant events ("i", thread scope). A hit
//   reads no clock: it is placed at the end of the sibling before it, or at the start of its
//   parent when it comes first (at the thread's first timed node when it has no parent).
// - Each counter value (qprof::counter) is a counter event ("C") after its thread's slices,
//   named after the counter, with the thread's name as its one series in args, so that each
//   thread's values are a track of their own ("live nodes main" in Perfetto):
//   {"name":"live nodes","ph":"C","ts":2.000,"pid":1,"tid":1,"args":{"main":42}}.
//   Sizes (qprof::record_size) have no time, so no event: otherData.sizes holds each name's
//   total bytes.
// - A run that left events out (-Z profile-queries-events) says so in otherData:
//   "not_recorded":"hits; providers def_span".
#include <algorithm>
#include <charconv>

#include "builtin_reporters.hpp"
#include "format.hpp"
#include "preorder.hpp"

namespace qprof::detail {

namespace {

// Writes the events of a trace through a buffer: a large trace makes millions of them.
class EventWriter {
  public:
    EventWriter(const Trace& trace, const ReportOptions& options, std::ostream& out)
        : trace_(trace),
          hits_(options.chrome_hits),
          with_keys_(options.chrome_keys),
          out_(out),
          keys_(trace.key_texts.size()) {
        for (const ProviderTotals& provider : trace.providers) {
            providers_.push_back(json_string(provider.provider));
            const std::string_view colour_class = trace.colour_class_of(provider);
            class_categories_.push_back(
                colour_class.empty() ? std::string{} : std::string(1, ',').append(colour_class));
        }
    }

    void write() {
        buffer_ += "{\"traceEvents\":[\n";
        write_process_names();
        for (const ThreadTrace& thread : trace_.threads) {
            write_thread_names(thread);
        }
        for (const ThreadTrace& thread : trace_.threads) {
            write_thread(thread);
            write_counters(thread);
        }
        buffer_ += "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"clock\":";
        buffer_ += json_string(trace_.clock);
        buffer_ += ",\"wall_ns\":";
        append_integer(buffer_, static_cast<std::uint64_t>(trace_.wall_ns));
        write_sizes();
        if (const std::string left_out = trace_.selection.left_out(trace_.keys_recorded);
            !left_out.empty()) {
            buffer_ += ",\"not_recorded\":";
            buffer_ += json_string(left_out);
        }
        buffer_ += "}}\n";
        flush();
    }

  private:
    void write_process_names() {
        if (trace_.runs.size() <= 1) {
            buffer_ += R"({"name":"process_name","ph":"M","pid":1,"args":{"name":)";
            buffer_ +=
                json_string(trace_.program.empty() ? std::string_view{"qprof"} : trace_.program);
            buffer_ += "}}";
            return;
        }
        for (std::size_t run = 0; run < trace_.runs.size(); ++run) {
            const RunInfo& info = trace_.runs[run];
            const std::string pid = std::to_string(run + 1);
            buffer_ += run == 0 ? "" : ",\n";
            buffer_ += R"({"name":"process_name","ph":"M","pid":)" + pid + R"(,"args":{"name":)";
            buffer_ += json_string(info.program.empty() ? std::string_view{"qprof"} : info.program);
            buffer_ += "}},\n";
            buffer_ += R"({"name":"process_labels","ph":"M","pid":)" + pid +
                       R"(,"args":{"labels":"pid )" + std::to_string(info.pid) + "\"}},\n";
            buffer_ += R"({"name":"process_sort_index","ph":"M","pid":)" + pid +
                       R"(,"args":{"sort_index":)" + std::to_string(run) + "}}";
        }
    }

    void write_thread_names(const ThreadTrace& thread) {
        begin_event("thread_name", thread);
        buffer_ += ",\"args\":{\"name\":" + json_string(thread.name) + "}}";
        begin_event("thread_sort_index", thread);
        buffer_ += ",\"args\":{\"sort_index\":";
        append_integer(buffer_, thread.index);
        buffer_ += "}}";
    }

    void begin_event(std::string_view name, const ThreadTrace& thread) {
        buffer_ += ",\n{\"name\":\"";
        buffer_ += name;
        buffer_ += "\",\"ph\":\"M\"";
        append_ids(thread);
    }

    void append_ids(const ThreadTrace& thread) {
        buffer_ += ",\"pid\":";
        append_integer(buffer_, thread.run + 1ULL);
        buffer_ += ",\"tid\":";
        append_integer(buffer_, thread.index + 1ULL);
    }

    void write_thread(const ThreadTrace& thread) {
        const Preorder order{thread};
        // Where a hit at each depth goes: the end of the sibling before it, else the start
        // of its parent. A hit has no children, so the first timed node is a root.
        std::vector<std::int64_t> cursor(1, 0);
        for (std::uint32_t n = 0; n < order.size(); ++n) {
            if (order.node(n).outcome != Outcome::hit) {
                cursor[0] = order.node(n).start;
                break;
            }
        }
        std::vector<std::int64_t> ends;  // the end written for the open node at each depth
        for (std::uint32_t n = 0; n < order.size(); ++n) {
            const Node& node = order.node(n);
            const std::uint32_t depth = order.depth(n);
            cursor.resize(std::max<std::size_t>(cursor.size(), depth + 2));
            if (node.outcome != Outcome::hit) {
                ends.resize(depth + 1);
                ends[depth] = written_end(node, depth == 0 ? node.end : ends[depth - 1]);
                cursor[depth] = ends[depth];
                cursor[depth + 1] = node.start;
                write_node(thread, order.post_index(n), node, node.start, ends[depth]);
            } else if (hits_) {
                write_node(thread, order.post_index(n), node, cursor[depth], 0);
            }
        }
    }

    void write_counters(const ThreadTrace& thread) {
        const std::string series = json_string(thread.name);
        for (const CounterSeries& counter : thread.counters) {
            const std::string name = json_string(trace_.counters[counter.counter].name);
            for (const CounterSample& sample : counter.samples) {
                buffer_ += ",\n{\"name\":" + name + ",\"ph\":\"C\",\"ts\":";
                append_microseconds(buffer_, sample.time_ns);
                append_ids(thread);
                buffer_ += ",\"args\":{" + series + ':' + std::to_string(sample.value) + "}}";
                if (buffer_.size() >= kFlushBytes) {
                    flush();
                }
            }
        }
    }

    void write_sizes() {
        if (trace_.sizes.empty()) {
            return;
        }
        buffer_ += ",\"sizes\":{";
        for (std::size_t i = 0; i < trace_.sizes.size(); ++i) {
            buffer_ += i > 0 ? "," : "";
            buffer_ += json_string(trace_.sizes[i].name);
            buffer_ += ':';
            append_integer(buffer_, trace_.sizes[i].bytes);
        }
        buffer_ += '}';
    }

    // The end to write for a timed node: its own, within its parent's written end (never before
    // its start, even when a damaged stream puts it past the parent's end), and early
    // enough that ts + dur added in floating point (as DevTools and speedscope add them) does
    // not pass the exact end -- or a neighbour starting right there would seem to overlap it,
    // and be dropped. At most a nanosecond or two earlier than measured, rarely.
    static std::int64_t written_end(const Node& node, std::int64_t parent_end) {
        std::int64_t end = std::max(node.start, std::min(node.end, parent_end));
        const auto microseconds = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; };
        // A step or two for any real time; times beyond 2^53 ns (a damaged stream) are left
        // as they are rather than stepped through one nanosecond at a time.
        for (int step = 0;
             step < 16 && end > node.start &&
             microseconds(node.start) + microseconds(end - node.start) > microseconds(end);
             ++step) {
            --end;
        }
        return end;
    }

    // Node `index` of the thread (`node`, as the pre-order walk read it).
    void write_node(const ThreadTrace& thread, std::uint32_t index, const Node& node,
                    std::int64_t ts, std::int64_t end) {
        const bool hit = node.outcome == Outcome::hit;
        const std::string_view outcome = outcome_name(node.outcome);
        const std::uint32_t provider = trace_.sites[node.site].provider_index;
        buffer_ += ",\n{\"name\":";
        buffer_ += providers_[provider];
        buffer_ += ",\"cat\":\"";
        buffer_ += outcome;
        buffer_ += node.unfinished ? ",unfinished" : "";
        buffer_ += class_categories_[provider];
        buffer_ += hit ? "\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" : "\",\"ph\":\"X\",\"ts\":";
        append_microseconds(buffer_, ts);
        if (!hit) {
            buffer_ += ",\"dur\":";
            append_microseconds(buffer_, end - ts);
        }
        append_ids(thread);
        write_args(thread, index, node.outcome == Outcome::activity);
        buffer_ += '}';
        if (buffer_.size() >= kFlushBytes) {
            flush();
        }
    }

    void write_args(const ThreadTrace& thread, std::uint32_t index, bool activity) {
        // An activity's argument always goes; a query's key with -Z profile-queries-chrome=keys.
        if (activity) {
            buffer_ += ",\"tdur\":";
            append_microseconds(buffer_, thread.cpu_ns(index));
        }
        const std::uint32_t key =
            thread.keys.empty() || !(with_keys_ || activity) ? 0 : thread.keys[index];
        if (key == 0) {
            return;
        }
        std::string& text = keys_[key - 1];
        if (text.empty()) {  // each key escaped once, when first used
            text = json_string(trace_.key_texts[key - 1]);
        }
        buffer_ += activity ? ",\"args\":{\"arg\":" : ",\"args\":{\"key\":";
        buffer_ += text;
        buffer_ += '}';
    }

    void flush() {
        out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
        buffer_.clear();
    }

    static constexpr std::size_t kFlushBytes = 1 << 16;

    const Trace& trace_;
    bool hits_;
    bool with_keys_;
    std::ostream& out_;
    std::string buffer_;
    std::vector<std::string> providers_;  // escaped names
    // By provider: ",CLASS" for one with a colour class (a class needs no escaping), else "".
    std::vector<std::string> class_categories_;
    std::vector<std::string> keys_;  // escaped key texts, filled when first used
};

class ChromeReporter : public Reporter {
  public:
    std::string_view name() const override { return "chrome"; }
    std::string_view description() const override {
        return "Chrome Trace Event Format (JSON) for Perfetto, DevTools and speedscope";
    }
    std::string_view file_suffix() const override { return "trace.json"; }

    void configure(const ReportOptions& options) override { options_ = options; }

    void write(const Trace& trace, std::ostream& out) override {
        EventWriter{trace, options_, out}.write();
    }

  private:
    ReportOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_chrome_reporter() { return std::make_unique<ChromeReporter>(); }

}  // namespace qprof::detail
