#include "tree_builder.hpp"

namespace qprof::detail {

Outcome outcome_of(RecordKind kind) {
    switch (kind) {
        case RecordKind::hit:
            return Outcome::hit;
        case RecordKind::miss:
            return Outcome::miss;
        case RecordKind::activity:
            return Outcome::activity;
        case RecordKind::blocked:
            return Outcome::blocked;
        case RecordKind::load:
            return Outcome::load;
    }
    return Outcome::miss;
}

void TreeBuilder::add_hit(std::uint64_t head) {
    Node node;
    node.site = head_site(head);
    node.depth = head_depth(head);
    node.outcome = Outcome::hit;
    add(node);
}

void TreeBuilder::add_scope(std::uint64_t head, std::uint64_t start, std::uint64_t end) {
    Node node;
    node.site = head_site(head);
    node.depth = head_depth(head);
    node.outcome = outcome_of(head_kind(head));
    node.start_ns = static_cast<std::int64_t>(start);
    node.end_ns = static_cast<std::int64_t>(end);
    node.unfinished = head_unfinished(head);
    add(node);
}

void TreeBuilder::add(Node node) {
    const auto index = static_cast<std::uint32_t>(nodes_.size());
    node.first = index;
    while (!pending_.empty() && nodes_[pending_.back()].depth > node.depth) {
        node.first = nodes_[pending_.back()].first;
        ++node.extent;
        pending_.pop_back();
    }
    nodes_.push_back(node);
    pending_.push_back(index);
}

}  // namespace qprof::detail
