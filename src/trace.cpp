// The read side of the trace model.
#include <algorithm>
#include <qprof/trace.hpp>

#include "ancestor_stack.hpp"

namespace qprof {

std::string_view outcome_name(Outcome outcome) {
    switch (outcome) {
        case Outcome::miss:
            return "miss";
        case Outcome::hit:
            return "hit";
        case Outcome::blocked:
            return "blocked";
        case Outcome::load:
            return "load";
        case Outcome::activity:
            return "activity";
    }
    return "unknown";
}

namespace {

// Walks backwards over the consecutive subtrees that end at `last` and start at `first`.
std::vector<std::uint32_t> subtrees_between(const NodeStore& nodes, std::int64_t first,
                                            std::int64_t last) {
    std::vector<std::uint32_t> tops;
    for (std::int64_t i = last; i >= first; i = static_cast<std::int64_t>(nodes[i].first) - 1) {
        tops.push_back(static_cast<std::uint32_t>(i));
    }
    std::reverse(tops.begin(), tops.end());
    return tops;
}

}  // namespace

std::vector<std::uint32_t> ThreadTrace::roots() const {
    return subtrees_between(nodes, 0, static_cast<std::int64_t>(nodes.size()) - 1);
}

std::vector<std::uint32_t> ThreadTrace::children(std::uint32_t node) const {
    return subtrees_between(nodes, nodes[node].first, static_cast<std::int64_t>(node) - 1);
}

std::vector<std::uint32_t> ThreadTrace::parents() const {
    const auto none = static_cast<std::uint32_t>(nodes.size());
    std::vector<std::uint32_t> parent(nodes.size(), none);
    // In reverse post-order a node comes before its descendants, so the innermost enclosing
    // subtree on the stack is the parent.
    struct Enclosing {
        std::uint32_t first;  // where its subtree starts
        std::uint32_t index;
    };
    detail::AncestorStack<Enclosing> enclosing;
    nodes.walk_backwards([&](std::uint32_t i, const NodeHead&, const NodeBody* body) {
        enclosing.leave_before(i);
        if (!enclosing.empty()) {
            parent[i] = enclosing.innermost().index;
        }
        enclosing.enter(Enclosing{body != nullptr ? body->first : i, i});
    });
    return parent;
}

std::string_view Trace::key_of(const ThreadTrace& thread, std::uint32_t node) const {
    if (node >= thread.keys.size() || thread.keys[node] == 0) {
        return {};
    }
    return key_texts[thread.keys[node] - 1];
}

std::int64_t ThreadTrace::cpu_ns(std::uint32_t node) const {
    const auto it =
        std::lower_bound(activity_cpu.begin(), activity_cpu.end(), node,
                         [](const ActivityCpu& entry, std::uint32_t n) { return entry.node < n; });
    return it != activity_cpu.end() && it->node == node ? it->cpu_ns : -1;
}

namespace {
std::string with_argument(std::string name, std::string_view argument) {
    if (!argument.empty()) {
        name.append("(").append(argument).append(")");
    }
    return name;
}
}  // namespace

std::string Trace::name_of(const ThreadTrace& thread, std::uint32_t node) const {
    const Node& n = thread.nodes[node];
    return with_argument(provider_of(n).provider,
                         n.outcome == Outcome::activity ? key_of(thread, node) : "");
}

std::string Trace::name_of(const ArgumentTotals& arguments) const {
    return with_argument(providers[arguments.activity].provider, arguments.argument);
}

std::uint64_t Trace::node_count() const {
    std::uint64_t count = 0;
    for (const ThreadTrace& thread : threads) {
        count += thread.nodes.size();
    }
    return count;
}

std::int64_t ProviderTotals::work_self_ns() const {
    return std::max<std::int64_t>(0, self_ns - blocked_self_ns);
}

std::vector<const SizeTotals*> Trace::sizes_by_bytes() const {
    std::vector<const SizeTotals*> sorted;
    for (const SizeTotals& size : sizes) {
        sorted.push_back(&size);
    }
    std::sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
        return a->bytes != b->bytes ? a->bytes > b->bytes : a->name < b->name;
    });
    return sorted;
}

}  // namespace qprof
