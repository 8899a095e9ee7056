// profile_queries.folded: the trace as folded stacks, the input of flamegraph.pl, inferno and
// speedscope. One line per distinct stack, `frame;frame;frame value`, sorted by bytes:
//
//   main;type checking;typeck;type_of 4000000
//
// - Frames from the root down: the thread's name (none with merge-threads; in a merged build,
//   the program and then the thread's own name), then activity and provider names; with
//   -Z profile-queries-folded=keys, `provider(key)`; with =args, an activity's argument,
//   `codegen unit(math)` (keys imply it).
// - The value is the self time in nanoseconds; stacks with none are left out. With
//   -Z profile-queries-folded=bytes it is the self allocated bytes instead (a run recorded with
//   -Z profile-queries-memory; any other run's report fails, naming that flag): hits allocate
//   nothing and are left out.
// - Blocked waits end in `_[k]` and loads in `_[j]`, which the tools colour apart from runs
//   (as kernel and JIT frames). With -Z profile-queries-folded=hits, cache hits are leaves
//   ending in `_[i]` (coloured as inlined frames) whose value is their count: a hit reads no
//   clock, so it weighs 1 ns.
// - So that every line matches `^[^ ]+( [0-9]+)$`, a space or a control character in a name
//   becomes '_' and ';' becomes ':'; an empty name becomes '_', and bytes that are not UTF-8
//   U+FFFD. Stacks that then read the same are merged.
// - With -Z profile-queries-folded=classes, a provider with a colour class (PROFILE_QUERY_CLASS,
//   -Z profile-queries-colour) ends its frames in `_[CLASS]`, before any suffix above:
//   `codegen_[codegen]`, `compile_loop_[jit]_[k]`. flamegraph.pl and inferno colour the suffixes
//   they know by their palettes (--colors=java: a class named j, i or k is drawn green, aqua or
//   orange) and show the others as part of the name. Off by default: it renames frames.
// - A run that left events out (-Z profile-queries-events) starts with one line that says so,
//   `# not recorded: hits`, which the tools skip as they skip any line without a value.
// - A line holds at most 1000 frames: the 1000th and all below it are summed into one last
//   frame, `[frames_1000_and_deeper]`. A stack's line repeats every frame above it, so without
//   a limit a chain of a million nested queries would make terabytes of lines.
//
// Memory stays linear in the trace: the distinct stacks are kept as a tree of frame texts and
// each line is written from the path down to it, never stored whole.
#include <algorithm>
#include <stdexcept>
#include <unordered_map>

#include "builtin_reporters.hpp"
#include "format.hpp"
#include "report_writer.hpp"
#include "stack_tree.hpp"

namespace qprof::detail {

namespace {

constexpr std::uint32_t kMaxFoldedDepth = 1000;
constexpr std::string_view kDeeperFrame = "[frames_1000_and_deeper]";

std::string frame_text(const StackFrame& frame, bool with_class) {
    std::string text = frame.name.empty() ? "_" : valid_utf8(frame.name);
    for (char& c : text) {
        if (c == ' ' || is_control_char(static_cast<unsigned char>(c))) {
            c = '_';
        } else if (c == ';') {
            c = ':';
        }
    }
    if (with_class && !frame.colour_class.empty()) {  // a class holds no ' ', ';' nor ']'
        text += "_[" + std::string{frame.colour_class} + "]";
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

// Hits have no time: they are counted. Weighed by bytes, they weigh nothing.
std::int64_t value_of(const StackFrame& frame, bool bytes) {
    if (bytes) {
        return frame.self_bytes;
    }
    return frame.kind == FrameKind::hit ? static_cast<std::int64_t>(frame.count) : frame.self_ns;
}

// The distinct lines as a tree: a stack is its parent stack and one more frame text.
class FoldedStacks {
  public:
    FoldedStacks(const StackTree& tree, bool merge_threads, bool with_classes, bool bytes) {
        const std::vector<StackFrame>& frames = tree.frames();
        std::vector<std::uint32_t> stack_of(frames.size());
        std::vector<std::uint32_t> depth_of(frames.size());  // frames in its line
        for (std::uint32_t f = 0; f < frames.size(); ++f) {
            const StackFrame& frame = frames[f];
            const bool root = frame.parent == StackFrame::kNoParent;
            if (root && merge_threads) {
                continue;  // "all threads" is no frame: its children start lines (stack 0)
            }
            const std::uint32_t parent = root ? 0 : stack_of[frame.parent];
            const std::uint32_t depth = root ? 1 : depth_of[frame.parent] + 1;
            if (depth < kMaxFoldedDepth) {
                stack_of[f] = child(parent, frame_text(frame, with_classes));
            } else if (depth == kMaxFoldedDepth) {
                stack_of[f] = child(parent, std::string{kDeeperFrame});
            } else {
                stack_of[f] = parent;  // summed into the deeper frame above
            }
            depth_of[f] = depth;
            stacks_[stack_of[f]].value += value_of(frame, bytes);
        }
        index_.clear();
        link_children();
    }

    // Lines in byte order: a stack's own line sorts before the lines below it, which all
    // start with its text and ';', so each sibling's line and the block of lines below it
    // sort as the texts "name" and "name;" -- written depth first, one path of frames held.
    void write(std::ostream& out) const {
        std::string line;
        std::string buffer;
        std::vector<Level> levels;
        levels.push_back(Level{sorted_items(0), 0, 0});
        while (!levels.empty()) {
            Level& level = levels.back();
            if (level.next == level.items.size()) {
                line.resize(level.line_size);
                levels.pop_back();
                continue;
            }
            const Item item = level.items[level.next++];
            const Stack& stack = stacks_[item.stack];
            if (item.below) {
                const std::size_t size = line.size();
                line += stack.text;
                line += ';';
                levels.push_back(Level{sorted_items(item.stack), 0, size});
            } else if (stack.value > 0) {
                buffer += line;
                buffer += stack.text;
                buffer += ' ';
                buffer += std::to_string(stack.value);
                buffer += '\n';
                if (buffer.size() >= kFlushBytes) {
                    out << buffer;
                    buffer.clear();
                }
            }
        }
        out << buffer;
    }

  private:
    static constexpr std::size_t kFlushBytes = 1 << 16;

    struct Stack {
        std::uint32_t parent = 0;
        std::string text;  // its last frame
        std::int64_t value = 0;
    };
    // A child stack's own line, or the lines below it.
    struct Item {
        std::uint32_t stack;
        bool below;
    };
    struct Level {
        std::vector<Item> items;
        std::size_t next;
        std::size_t line_size;  // the line's length before this level's frame
    };

    std::uint32_t child(std::uint32_t parent, std::string text) {
        std::string id(reinterpret_cast<const char*>(&parent), sizeof parent);
        id += text;
        const auto [it, added] =
            index_.try_emplace(std::move(id), static_cast<std::uint32_t>(stacks_.size()));
        if (added) {
            stacks_.push_back(Stack{parent, std::move(text), 0});
        }
        return it->second;
    }

    // Each stack's children as one range of children_, in the order they first ran.
    void link_children() {
        first_child_.assign(stacks_.size() + 1, 0);
        for (std::uint32_t s = 1; s < stacks_.size(); ++s) {
            ++first_child_[stacks_[s].parent + 1];
        }
        for (std::size_t s = 1; s < first_child_.size(); ++s) {
            first_child_[s] += first_child_[s - 1];
        }
        children_.resize(stacks_.size() - 1);
        std::vector<std::uint32_t> filled(first_child_.begin(), first_child_.end() - 1);
        for (std::uint32_t s = 1; s < stacks_.size(); ++s) {
            children_[filled[stacks_[s].parent]++] = s;
        }
    }

    bool has_children(std::uint32_t stack) const {
        return first_child_[stack + 1] > first_child_[stack];
    }

    std::vector<Item> sorted_items(std::uint32_t stack) const {
        std::vector<Item> items;
        for (std::uint32_t c = first_child_[stack]; c < first_child_[stack + 1]; ++c) {
            items.push_back(Item{children_[c], false});
            if (has_children(children_[c])) {
                items.push_back(Item{children_[c], true});
            }
        }
        std::sort(items.begin(), items.end(),
                  [this](const Item& a, const Item& b) { return before(a, b); });
        return items;
    }

    // As the texts "name" (a line) and "name;" (the lines below) compare byte by byte.
    bool before(const Item& a, const Item& b) const {
        const std::string& x = stacks_[a.stack].text;
        const std::string& y = stacks_[b.stack].text;
        const auto byte = [](const std::string& text, bool below, std::size_t i) -> int {
            if (i < text.size()) {
                return static_cast<unsigned char>(text[i]);
            }
            return i == text.size() && below ? ';' : -1;
        };
        for (std::size_t i = 0;; ++i) {
            const int p = byte(x, a.below, i);
            const int q = byte(y, b.below, i);
            if (p != q || p < 0) {
                return p < q;
            }
        }
    }

    std::vector<Stack> stacks_{Stack{}};  // 0: the empty stack above every first frame
    std::unordered_map<std::string, std::uint32_t> index_;  // by parent and text, while built
    std::vector<std::uint32_t> first_child_;
    std::vector<std::uint32_t> children_;
};

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
        options_.args = options.folded_args;
        classes_ = options.folded_classes;
        bytes_ = options.folded_bytes;
    }

    void write(const Trace& trace, std::ostream& out) override {
        if (bytes_ && !trace.memory_recorded) {
            throw std::invalid_argument(std::string{kFoldedBytesNeedMemory});
        }
        if (const std::string left_out = trace.selection.left_out(trace.keys_recorded);
            !left_out.empty()) {
            out << "# not recorded: " << text_field(left_out) << '\n';
        }
        const StackTree tree{trace, options_};
        FoldedStacks{tree, options_.merge_threads, classes_, bytes_}.write(out);
    }

  private:
    StackOptions options_;
    bool classes_ = false;
    bool bytes_ = false;
};

}  // namespace

std::unique_ptr<Reporter> make_folded_reporter() { return std::make_unique<FoldedReporter>(); }

}  // namespace qprof::detail
