// profile_queries.folded: the trace as folded stacks, the input of flamegraph.pl, inferno and
// speedscope. One line per distinct stack, `frame;frame;frame value`, sorted by bytes:
//
//   main;type checking;typeck;type_of 4000000
//
// - Frames from the root down: the thread's name (none with merge-threads), then activity
//   and provider names; with -Z profile-queries-folded=keys, `provider(key)`.
// - The value is the self time in nanoseconds; stacks with none are left out.
// - Blocked waits end in `_[k]` and loads in `_[j]`, which the tools colour apart from runs
//   (as kernel and JIT frames). With -Z profile-queries-folded=hits, cache hits are leaves
//   ending in `_[i]` (coloured as inlined frames) whose value is their count: a hit reads no
//   clock, so it weighs 1 ns.
// - So that every line matches `^[^ ]+( [0-9]+)$`, whitespace in a name becomes '_' and ';'
//   becomes ':'; an empty name becomes '_'. Stacks that then read the same are merged.
#include <map>

#include "builtin_reporters.hpp"
#include "stack_tree.hpp"

namespace qprof::detail {

namespace {

std::string frame_text(const StackFrame& frame) {
    std::string text = frame.name.empty() ? "_" : frame.name;
    for (char& c : text) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
            c = '_';
        } else if (c == ';') {
            c = ':';
        }
    }
    switch (frame.kind) {
        case FrameKind::hit:
            return text + "_[i]";
        case FrameKind::blocked:
            return text + "_[k]";
        case FrameKind::load:
            return text + "_[j]";
        default:
            return text;
    }
}

// Hits have no time: they are counted.
std::int64_t value_of(const StackFrame& frame) {
    return frame.kind == FrameKind::hit ? static_cast<std::int64_t>(frame.count) : frame.self_ns;
}

class FoldedReporter : public Reporter {
  public:
    std::string_view name() const override { return "folded"; }
    std::string_view description() const override {
        return "folded stacks, self time in ns, for flamegraph.pl, inferno and speedscope";
    }
    std::string_view file_suffix() const override { return "folded"; }

    void configure(const ReportOptions& options) override {
        options_.merge_threads = options.folded_merge_threads;
        options_.hits = options.folded_hits;
        options_.keys = options.folded_keys;
    }

    void write(const Trace& trace, std::ostream& out) override {
        const StackTree tree{trace, options_};
        const std::vector<StackFrame>& frames = tree.frames();
        std::map<std::string, std::int64_t> values;  // by stack: byte order, merged by text
        // Each frame's stack as text, kept once: as its key in `values`. Parents come before
        // their children.
        std::vector<const std::string*> stacks(frames.size(), nullptr);
        for (std::size_t f = 0; f < frames.size(); ++f) {
            const StackFrame& frame = frames[f];
            const bool root = frame.parent == StackFrame::kNoParent;
            if (root && options_.merge_threads) {
                continue;  // "all threads" is no frame: stacks start at the providers
            }
            std::string stack;
            if (!root && stacks[frame.parent] != nullptr) {
                stack = *stacks[frame.parent] + ';';
            }
            stack += frame_text(frame);
            const auto entry = values.try_emplace(std::move(stack), 0).first;
            entry->second += value_of(frame);
            stacks[f] = &entry->first;
        }
        for (const auto& [stack, value] : values) {
            if (value > 0) {
                out << stack << ' ' << value << '\n';
            }
        }
    }

  private:
    StackOptions options_;
};

}  // namespace

std::unique_ptr<Reporter> make_folded_reporter() { return std::make_unique<FoldedReporter>(); }

}  // namespace qprof::detail
