// NodeStore's functions that are not on a path taken for every node.
#include <qprof/node_store.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace qprof {

static_assert(sizeof(Node) == 32, "a node as readers see it: head and body");
static_assert(sizeof(NodeHead) == 8 && sizeof(NodeBody) == 24,
              "a plain leaf hit is kept in 8 bytes, any other node in 32");

NodeStore::NodeStore(std::initializer_list<Node> nodes) {
    reserve(nodes.size());
    for (const Node& node : nodes) {
        push_back(node);
    }
}

Node NodeStore::at(std::size_t i) const {
    if (i >= size()) {
        throw std::out_of_range("NodeStore::at: node " + std::to_string(i) + " of " +
                                std::to_string(size()));
    }
    return (*this)[i];
}

void NodeStore::push_back(const Node& node) {
    const NodeHead head{node.site, node.depth, node.unfinished, node.outcome};
    if (is_plain_leaf_hit(node, size())) {
        push_leaf_hit(head);
    } else {
        push_back(head, NodeBody{node.extent, node.first, node.start, node.end});
    }
}

void NodeStore::reserve(std::size_t nodes, std::size_t bodies) {
    heads_.reserve(nodes);
    bodies_.reserve(bodies);
    const std::size_t blocks = (nodes + 63) / 64;
    bits_.reserve(blocks);
    ranks_.reserve(blocks);
}

void NodeStore::clear() {
    heads_.clear();
    bodies_.clear();
    bits_.clear();
    ranks_.clear();
}

void NodeStore::swap(NodeStore& other) noexcept {
    heads_.swap(other.heads_);
    bodies_.swap(other.bodies_);
    bits_.swap(other.bits_);
    ranks_.swap(other.ranks_);
}

std::size_t NodeStore::bytes_used() const {
    return heads_.size() * sizeof(NodeHead) + bodies_.size() * sizeof(NodeBody) +
           bits_.size() * sizeof(std::uint64_t) + ranks_.size() * sizeof(std::uint32_t);
}

}  // namespace qprof
