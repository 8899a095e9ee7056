// profile_queries.pb.gz: the trace in pprof's profile format (profile.proto), gzipped, for
// `go tool pprof` and the systems that gather profiles across machines (Grafana Pyroscope,
// Google Cloud Profiler).
//
// - One function and one location per provider and per activity, named after it, with the
//   file and line of its first call site.
// - One sample per call path, as the flame graph merges them (the same providers from the
//   root down, on one thread), labelled with its thread (`thread`), with three values:
//   `runs` (provider runs, loads, blocked waits and activities that ended on that path),
//   `hits` (cache hits) and `self_time` in nanoseconds, the default. pprof adds a path's
//   values up its stack, so a provider's flat time is its self time and its cumulative time
//   its inclusive time, a provider re-entered inside itself counted once.
// - With -Z profile-queries-memory, two values more, self as the time is: `alloc_space`
//   (allocated bytes) and `alloc_objects` (allocations), the names Go's heap profiles give
//   them, so that `go tool pprof -alloc_space` picks them. Without it the file is as before.
// - An activity's argument (PROFILE_ACTIVITY_ARG) splits its paths, and each sample below it
//   carries a label named after the activity whose value is the argument: `codegen
//   unit=toyc.cgu.0`, for `go tool pprof -tags` and `-tagfocus`. Its function stays one.
// - Stacks deeper than kMaxFrames keep their innermost frames under one frame named
//   "(outer frames cut)", and at most kMaxFrames labels: pprof lists every frame of every
//   sample, so a very deep recursion would otherwise make a file quadratic in its depth. The
//   labels are found through each frame's innermost activity with an argument, not by
//   walking the whole stack, for the same reason.
// - A run that left events out (-Z profile-queries-events) says so in a second comment,
//   "not recorded: hits", which `go tool pprof -raw` shows.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "builtin_reporters.hpp"
#include "gzip.hpp"
#include "protobuf.hpp"
#include "stack_tree.hpp"

namespace qprof::detail {

namespace {

constexpr std::size_t kMaxFrames = 1'000;
constexpr std::string_view kCutFrame = "(outer frames cut)";
constexpr std::uint32_t kNoFrame = ~std::uint32_t{0};

// profile.proto's field numbers, for the messages written here.
namespace field {
constexpr std::uint32_t kSampleType = 1, kSample = 2, kMapping = 3, kLocation = 4, kFunction = 5,
                        kStringTable = 6, kDurationNanos = 10, kPeriodType = 11, kPeriod = 12,
                        kComment = 13, kDefaultSampleType = 14;
}  // namespace field

class StringTable {
  public:
    std::uint64_t operator()(const std::string& text) {
        auto [it, added] = ids_.try_emplace(text, strings_.size());
        if (added) {
            strings_.push_back(text);
        }
        return it->second;
    }
    void write_to(ProtoWriter& profile) const {
        for (const std::string& text : strings_) {
            profile.bytes(field::kStringTable, text);
        }
    }

  private:
    std::vector<std::string> strings_{""};  // string 0 is the empty string
    std::unordered_map<std::string, std::uint64_t> ids_{{"", 0}};
};

class ProfileBuilder {
  public:
    explicit ProfileBuilder(const Trace& trace) : trace_(trace) {
        for (const SiteInfo& site : trace.sites) {
            first_site_.try_emplace(site.provider, &site);
        }
    }

    std::string build() {
        const StackTree tree{trace_,
                             StackOptions{.merge_threads = false, .hits = true, .args = true}};
        const std::vector<StackFrame>& frames = tree.frames();
        sample_types();
        std::vector<std::uint32_t> thread_of(frames.size());
        std::vector<std::uint64_t> location_of(frames.size(), 0);
        // Each frame's innermost activity with an argument, itself included (kNoFrame for
        // none): a sample's labels come from these alone, so that a deep stack is not walked
        // whole for every sample.
        std::vector<std::uint32_t> labelled_of(frames.size(), kNoFrame);
        for (std::uint32_t i = 0; i < frames.size(); ++i) {
            const StackFrame& frame = frames[i];
            if (frame.kind == FrameKind::thread) {
                thread_of[i] = i;
                continue;
            }
            thread_of[i] = thread_of[frame.parent];
            labelled_of[i] =
                frame.kind == FrameKind::activity && frame.key != 0 ? i : labelled_of[frame.parent];
            location_of[i] = location(trace_.providers[frame.provider].provider);
            sample(frames, i, thread_of[i], location_of, labelled_of);
        }
        profile_.varint(field::kDurationNanos, static_cast<std::uint64_t>(trace_.wall_ns));
        ProtoWriter period_type;
        period_type.varint(1, strings_("self_time"));
        period_type.varint(2, strings_("nanoseconds"));
        profile_.message(field::kPeriodType, period_type);
        profile_.varint(field::kPeriod, 1);
        std::vector<std::uint64_t> comments{
            strings_("qprof: " + std::to_string(trace_.events) + " events, clock " + trace_.clock)};
        if (const std::string left_out = trace_.selection.left_out(trace_.keys_recorded);
            !left_out.empty()) {
            comments.push_back(strings_("not recorded: " + left_out));
        }
        profile_.packed(field::kComment, comments);
        profile_.varint(field::kDefaultSampleType, strings_("self_time"));
        mapping();
        strings_.write_to(profile_);
        return profile_.data();
    }

  private:
    void sample_types() {
        std::vector<std::pair<const char*, const char*>> types{
            {"runs", "count"}, {"hits", "count"}, {"self_time", "nanoseconds"}};
        if (trace_.memory_recorded) {
            types.insert(types.end(), {{"alloc_space", "bytes"}, {"alloc_objects", "count"}});
        }
        for (const auto& [type, unit] : types) {
            ProtoWriter value_type;
            value_type.varint(1, strings_(type));
            value_type.varint(2, strings_(unit));
            profile_.message(field::kSampleType, value_type);
        }
    }

    // The sample's values, in the order of sample_types(). A hit has only its count.
    std::vector<std::uint64_t> values_of(const StackFrame& frame) const {
        const bool hit = frame.kind == FrameKind::hit;
        std::vector<std::uint64_t> values{hit ? 0 : frame.count, hit ? frame.count : 0,
                                          hit ? 0 : static_cast<std::uint64_t>(frame.self_ns)};
        if (trace_.memory_recorded) {
            values.push_back(hit ? 0 : static_cast<std::uint64_t>(frame.self_bytes));
            values.push_back(hit ? 0 : static_cast<std::uint64_t>(frame.self_allocations));
        }
        return values;
    }

    void sample(const std::vector<StackFrame>& frames, std::uint32_t leaf, std::uint32_t thread,
                const std::vector<std::uint64_t>& location_of,
                const std::vector<std::uint32_t>& labelled_of) {
        const std::vector<std::uint64_t> values = values_of(frames[leaf]);
        if (std::all_of(values.begin(), values.end(), [](std::uint64_t v) { return v == 0; })) {
            return;
        }
        std::vector<std::uint64_t> stack;  // innermost first
        for (std::uint32_t f = leaf; f != thread; f = frames[f].parent) {
            if (stack.size() == kMaxFrames) {
                stack.push_back(location(std::string(kCutFrame)));
                break;
            }
            stack.push_back(location_of[f]);
        }
        ProtoWriter sample;
        sample.packed(1, stack);
        sample.packed(2, values);
        add_label(sample, "thread", frames[thread].name);
        std::size_t labels = 0;
        for (std::uint32_t f = labelled_of[leaf]; f != kNoFrame && labels < kMaxFrames;
             f = labelled_of[frames[f].parent], ++labels) {
            add_label(sample, trace_.providers[frames[f].provider].provider,
                      trace_.key_texts[frames[f].key - 1]);
        }
        profile_.message(field::kSample, sample);
    }

    void add_label(ProtoWriter& sample, const std::string& key, const std::string& value) {
        ProtoWriter label;
        label.varint(1, strings_(key));
        label.varint(2, strings_(value));
        sample.message(3, label);
    }

    // The location of a provider or activity, made with its function on first use.
    std::uint64_t location(const std::string& name) {
        auto [it, added] = locations_.try_emplace(name, locations_.size() + 1);
        if (!added) {
            return it->second;
        }
        const std::uint64_t id = it->second;
        const auto site = first_site_.find(name);
        const std::int64_t line = site == first_site_.end() ? 0 : site->second->line;
        ProtoWriter function;
        function.varint(1, id);
        function.varint(2, strings_(name));
        function.varint(3, strings_(name));
        function.varint(4, site == first_site_.end() ? 0 : strings_(site->second->file));
        function.varint(5, static_cast<std::uint64_t>(line));
        profile_.message(field::kFunction, function);
        ProtoWriter line_of;
        line_of.varint(1, id);
        line_of.varint(2, static_cast<std::uint64_t>(line));
        ProtoWriter location;
        location.varint(1, id);
        location.varint(2, 1);  // the one mapping
        location.message(4, line_of);
        profile_.message(field::kLocation, location);
        return id;
    }

    // One mapping that says the locations carry their functions: nothing to symbolize.
    void mapping() {
        ProtoWriter mapping;
        mapping.varint(1, 1);
        mapping.varint(5, strings_("qprof"));
        mapping.varint(7, 1);  // has_functions
        mapping.varint(8, 1);  // has_filenames
        mapping.varint(9, 1);  // has_line_numbers
        profile_.message(field::kMapping, mapping);
    }

    const Trace& trace_;
    std::unordered_map<std::string, const SiteInfo*> first_site_;
    std::unordered_map<std::string, std::uint64_t> locations_;
    StringTable strings_;
    ProtoWriter profile_;
};

class PprofReporter : public Reporter {
  public:
    std::string_view name() const override { return "pprof"; }
    std::string_view description() const override {
        return "call paths in pprof's format, for go tool pprof and profile aggregators";
    }
    std::string_view file_suffix() const override { return "pb.gz"; }
    void write(const Trace& trace, std::ostream& out) override {
        out << gzip_compress(ProfileBuilder{trace}.build());
    }
};

}  // namespace

std::unique_ptr<Reporter> make_pprof_reporter() { return std::make_unique<PprofReporter>(); }

}  // namespace qprof::detail
