#include "stack_tree.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "preorder.hpp"

namespace qprof::detail {

namespace {

FrameKind kind_of(Outcome outcome) {
    switch (outcome) {
        case Outcome::hit:
            return FrameKind::hit;
        case Outcome::blocked:
            return FrameKind::blocked;
        case Outcome::load:
            return FrameKind::load;
        case Outcome::activity:
            return FrameKind::activity;
        case Outcome::miss:
            break;
    }
    return FrameKind::miss;
}

// What makes two nodes one frame: the same parent frame, provider, outcome kind and key.
struct FrameKey {
    std::uint32_t parent;
    std::uint32_t provider;
    FrameKind kind;
    std::uint32_t key;  // 0 unless keys go into frames
    bool operator==(const FrameKey&) const = default;
};

struct FrameKeyHash {
    std::size_t operator()(const FrameKey& k) const {
        std::uint64_t h = (std::uint64_t{k.parent} << 32 | k.provider) * 0x9e3779b97f4a7c15ULL;
        h ^= (std::uint64_t{k.key} << 8 | static_cast<std::uint8_t>(k.kind)) + (h >> 29);
        return static_cast<std::size_t>(h * 0xbf58476d1ce4e5b9ULL);
    }
};

class Builder {
  public:
    Builder(const Trace& trace, const StackOptions& options, std::vector<StackFrame>& frames)
        : trace_(trace), options_(options), frames_(frames) {}

    void add_thread(const ThreadTrace& thread) {
        const std::uint32_t root = thread_frame(thread);
        const Preorder order{thread};
        std::vector<std::uint32_t> frame_of(order.size());
        for (std::uint32_t n = 0; n < order.size(); ++n) {
            const Node& node = order.node(n);
            if (node.outcome == Outcome::hit && !options_.hits) {
                continue;
            }
            const std::uint32_t parent = order.parent(n);
            const std::uint32_t parent_frame = parent == order.size() ? root : frame_of[parent];
            frame_of[n] = frame(parent_frame, thread, order.post_index(n), node);
            const std::int64_t duration = order.duration_ns(n);
            const MemoryUse memory =
                thread.memory.empty() ? MemoryUse{} : thread.memory[order.post_index(n)];
            frames_[frame_of[n]].count += 1;
            add(frames_[frame_of[n]], duration, memory);
            if (parent == order.size()) {  // the thread's time, and its process's
                for (std::uint32_t f = root; f != StackFrame::kNoParent; f = frames_[f].parent) {
                    add(frames_[f], duration, memory);
                }
            }
        }
    }

  private:
    static void add(StackFrame& frame, std::int64_t duration, const MemoryUse& memory) {
        frame.total_ns += duration;
        frame.total_bytes += static_cast<std::int64_t>(memory.allocated_bytes);
        frame.total_allocations += static_cast<std::int64_t>(memory.allocations);
    }

    std::uint32_t thread_frame(const ThreadTrace& thread) {
        if (options_.merge_threads && !frames_.empty()) {
            frames_[0].count += 1;
            return 0;
        }
        if (options_.merge_threads || trace_.runs.size() <= 1 || thread.run >= trace_.runs.size()) {
            return new_frame(StackFrame::kNoParent,
                             options_.merge_threads ? "all threads" : thread.name);
        }
        // A build: the program, then the thread by its own name, so that the threads of
        // every process of one program add up ("toyc;main;codegen").
        const RunInfo& run = trace_.runs[thread.run];
        const auto [process, added] =
            process_frames_.try_emplace(run.program, static_cast<std::uint32_t>(frames_.size()));
        if (added) {
            new_frame(StackFrame::kNoParent, run.program);
        } else {
            frames_[process->second].count += 1;
        }
        const std::string prefix = run.program + "[" + std::to_string(run.pid) + "] ";
        const std::string name =
            thread.name.starts_with(prefix) ? thread.name.substr(prefix.size()) : thread.name;
        const auto [named, new_name] = thread_frames_.try_emplace(
            {process->second, name}, static_cast<std::uint32_t>(frames_.size()));
        if (new_name) {
            return new_frame(process->second, name);
        }
        frames_[named->second].count += 1;
        return named->second;
    }

    std::uint32_t new_frame(std::uint32_t parent, std::string name) {
        StackFrame frame;
        frame.parent = parent;
        frame.name = std::move(name);
        frame.count = 1;
        frames_.push_back(std::move(frame));
        return static_cast<std::uint32_t>(frames_.size() - 1);
    }

    // The frame of node `node_index` of the thread (`node`, as the pre-order walk read it).
    std::uint32_t frame(std::uint32_t parent, const ThreadTrace& thread, std::uint32_t node_index,
                        const Node& node) {
        const std::uint32_t provider = trace_.sites[node.site].provider_index;
        const bool keyed = options_.keys || (options_.args && node.outcome == Outcome::activity);
        const std::uint32_t key = keyed && !thread.keys.empty() ? thread.keys[node_index] : 0;
        const FrameKey id{parent, provider, kind_of(node.outcome), key};
        const auto [it, added] = index_.try_emplace(id, static_cast<std::uint32_t>(frames_.size()));
        if (added) {
            StackFrame frame;
            frame.parent = parent;
            frame.kind = id.kind;
            frame.name = trace_.providers[provider].provider;
            frame.colour_class = trace_.colour_class_of(trace_.providers[provider]);
            frame.provider = provider;
            frame.key = key;
            if (key != 0) {
                frame.name += "(" + trace_.key_texts[key - 1] + ")";
            }
            frames_.push_back(std::move(frame));
        }
        return it->second;
    }

    const Trace& trace_;
    const StackOptions& options_;
    std::vector<StackFrame>& frames_;
    std::unordered_map<FrameKey, std::uint32_t, FrameKeyHash> index_;
    std::map<std::string, std::uint32_t> process_frames_;  // by program
    std::map<std::pair<std::uint32_t, std::string>, std::uint32_t> thread_frames_;
};

// A scope cut by the end of the session carries no memory, though the finished scopes inside
// it do: such a frame is given at least what its children allocated, so that no frame is
// narrower than its children when the flame graph is weighted by bytes.
void at_least_children(std::vector<StackFrame>& frames, std::int64_t StackFrame::*total) {
    std::vector<std::int64_t> children(frames.size());
    for (std::size_t f = frames.size(); f-- > 0;) {  // children come after their parent
        StackFrame& frame = frames[f];
        frame.*total = std::max(frame.*total, children[f]);
        if (frame.parent != StackFrame::kNoParent) {
            children[frame.parent] += frame.*total;
        }
    }
}

}  // namespace

StackTree::StackTree(const Trace& trace, const StackOptions& options) {
    Builder builder{trace, options, frames_};
    for (const ThreadTrace& thread : trace.threads) {
        builder.add_thread(thread);
    }
    at_least_children(frames_, &StackFrame::total_bytes);
    at_least_children(frames_, &StackFrame::total_allocations);
    for (StackFrame& frame : frames_) {
        frame.self_ns = frame.total_ns;
        frame.self_bytes = frame.total_bytes;
        frame.self_allocations = frame.total_allocations;
    }
    for (const StackFrame& frame : frames_) {  // children come after their parent
        if (frame.parent != StackFrame::kNoParent) {
            frames_[frame.parent].self_ns -= frame.total_ns;
            frames_[frame.parent].self_bytes -= frame.total_bytes;
            frames_[frame.parent].self_allocations -= frame.total_allocations;
        }
    }
}

std::vector<std::uint32_t> StackTree::path(std::uint32_t frame) const {
    std::vector<std::uint32_t> stack;
    for (std::uint32_t f = frame; f != StackFrame::kNoParent; f = frames_[f].parent) {
        stack.push_back(f);
    }
    std::reverse(stack.begin(), stack.end());
    return stack;
}

}  // namespace qprof::detail
