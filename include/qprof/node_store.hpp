// The nodes of a thread's tree (ThreadTrace::nodes, qprof/trace.hpp): a Node as readers see it,
// and NodeStore, which keeps nine events in ten (hits, which read no clock) in 8 bytes, not 32.
//
// For reporters: ThreadTrace::nodes was a std::vector<Node> (NodeVector, now another name for
// NodeStore). As a NodeStore, its indexing, iteration, front() and back() return a Node by
// value. `const Node& n = thread.nodes[i];` and `for (const Node& n : thread.nodes)` still
// compile and work (the reference keeps the copy alive). What no longer works: keeping a
// pointer or reference to a node past its statement (`&thread.nodes[i]` does not compile; a
// pointer taken in a range-for dangles), and changing a node in place (heads() and edit() are
// the writers' way). A walk over every node is cheapest in order: by iterator, or
// walk_backwards() from the last node, rather than by index, which counts bodies (a rank).
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <algorithm>
#include <bit>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>

namespace qprof {

// What happened when a query was asked.
enum class Outcome : std::uint8_t {
    miss,      // the provider ran
    hit,       // the cache answered; a leaf with no duration
    blocked,   // waited for another thread computing the same key
    load,      // read from a persistent cache
    activity,  // not a query: a pass such as parsing or code generation
};

std::string_view outcome_name(Outcome outcome);

// One event of a thread's tree, as a NodeStore hands it out (by value: the store keeps it in
// two parts, NodeHead and NodeBody, and a plain leaf hit in its head alone).
struct Node {
    std::uint32_t site = 0;        // into Trace::sites
    std::uint32_t depth : 23 = 0;  // ancestors on the path from the root
    bool unfinished : 1 = false;   // still open when the session ended; ends with it
    Outcome outcome : 8 = Outcome::miss;
    std::uint32_t extent = 0;  // immediate children
    std::uint32_t first = 0;   // nodes are in post-order: the subtree is [first, this node]
    // When the scope began and ended: in a complete Trace, nanoseconds from the session's start
    // (in a merged one, the earliest run's); in a tree builder, raw clock ticks until the trace
    // is completed. Hits have no clock read: start and end are 0.
    std::int64_t start = 0;
    std::int64_t end = 0;

    std::int64_t duration_ns() const { return end - start; }  // of a complete Trace's node
};

// A Node's first 8 bytes, which the store keeps for every node.
struct NodeHead {
    std::uint32_t site = 0;
    std::uint32_t depth : 23 = 0;
    bool unfinished : 1 = false;
    Outcome outcome : 8 = Outcome::miss;
};

// The rest of a Node: its subtree and its times. The store keeps one for every node but a plain
// leaf hit (a hit with no children and no times: extent 0, first its own index, start = end =
// 0), which is nine events in ten of a typical run.
struct NodeBody {
    std::uint32_t extent = 0;
    std::uint32_t first = 0;
    std::int64_t start = 0;
    std::int64_t end = 0;
};

namespace detail {
// Room for `count` elements of `size` bytes. Blocks of 2 MiB and more come from memory advised
// for transparent huge pages: a trace of a million nodes would otherwise take thousands of page
// faults to fill. Throws std::bad_alloc, out of line: a program built with -fno-exceptions may
// include this header.
void* allocate_large(std::size_t count, std::size_t size);
void free_large(void* block, std::size_t bytes);

// The node store's arrays: a std::vector of a trivially copyable type, for what the store needs
// of one, whose growth copies its elements as one block of bytes. A std::vector with an
// allocator of its own (the large pages') moved them one at a time (libstdc++ moves a vector's
// elements as bytes only with std::allocator), which took 18 % of the collector's time on a
// stream of toyc's mix.
template <typename T>
class LargeArray {
    static_assert(std::is_trivially_copyable_v<T>);

  public:
    LargeArray() = default;
    LargeArray(const LargeArray& other) { *this = other; }
    LargeArray(LargeArray&& other) noexcept { swap(other); }
    // When a block for the copy cannot be had, throws and leaves this array as it was.
    LargeArray& operator=(const LargeArray& other) {
        if (this != &other) {
            if (other.size_ > capacity_) {
                LargeArray room;
                room.reserve(other.size_);
                swap(room);
            }
            if (other.size_ != 0) {
                std::memcpy(static_cast<void*>(data_), other.data_, other.size_ * sizeof(T));
            }
            size_ = other.size_;
        }
        return *this;
    }
    LargeArray& operator=(LargeArray&& other) noexcept {
        LargeArray taken{std::move(other)};
        swap(taken);
        return *this;
    }
    ~LargeArray() { free_large(data_, capacity_ * sizeof(T)); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    std::size_t capacity() const { return capacity_; }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }

    // Stored as a copy of its bytes, in one store for a word-sized T.
    void push_back(const T& value) {
        if (size_ == capacity_) [[unlikely]] {
            reserve(std::max<std::size_t>(2 * capacity_, 16));
        }
        std::memcpy(static_cast<void*>(data_ + size_), &value, sizeof(T));
        ++size_;
    }
    void reserve(std::size_t count) {
        if (count <= capacity_) {
            return;
        }
        T* const grown = static_cast<T*>(allocate_large(count, sizeof(T)));
        if (size_ != 0) {
            std::memcpy(static_cast<void*>(grown), data_, size_ * sizeof(T));
        }
        free_large(data_, capacity_ * sizeof(T));
        data_ = grown;
        capacity_ = count;
    }
    void clear() { size_ = 0; }
    void swap(LargeArray& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
    }

  private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};
}  // namespace detail

// One thread's nodes in post-order: children before their parent, in call order. Each node
// keeps its head (8 bytes); each node but a plain leaf hit also a body (24 bytes) in a second
// array, in node order. A bitmap says which nodes have a body, and a count per 64 nodes of the
// bodies before them (a rank) finds node i's body in O(1): the count of its block plus the
// bits set before i in its block's word (a popcount). A walk in node order counts the bodies as
// it goes instead (the iterators; edit() and walk_backwards(), which read the bitmap a word per
// 64 nodes), so it needs no rank.
class NodeStore {
  public:
    static constexpr std::uint32_t kNoBody = ~std::uint32_t{0};

    class const_iterator;
    using value_type = Node;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using iterator = const_iterator;

    NodeStore() = default;
    NodeStore(std::initializer_list<Node> nodes);

    std::size_t size() const { return heads_.size(); }
    bool empty() const { return heads_.empty(); }
    Node operator[](std::size_t i) const { return assemble(i, body_of(i)); }
    Node at(std::size_t i) const;  // throws std::out_of_range past the end
    Node front() const { return (*this)[0]; }
    Node back() const { return (*this)[size() - 1]; }
    const_iterator begin() const;
    const_iterator end() const;

    // Whether node i keeps a body (is not a plain leaf hit).
    bool has_body(std::size_t i) const { return bit(bits_.data(), i); }
    // Where node i's body is in bodies(), or kNoBody: its rank.
    std::uint32_t body_of(std::size_t i) const { return has_body(i) ? bodies_before(i) : kNoBody; }
    // Node i, its body's place (body_of(i)) known already: from a walk that counted it.
    Node assemble(std::size_t i, std::uint32_t body) const {
        return node_of(i, heads_[i], body == kNoBody ? nullptr : &bodies_[body]);
    }
    // Node i from its head and its body (nullptr for a plain leaf hit): what a walk that holds
    // the parts (edit(), walk_backwards(), a saved body place) reads a node by.
    static Node node_of(std::size_t i, const NodeHead& head, const NodeBody* body) {
        return body != nullptr ? joined(head, *body)
                               : joined(head, NodeBody{0, static_cast<std::uint32_t>(i), 0, 0});
    }

    // The parts, for writers that change nodes in place and walks that need one part only. A
    // head may change freely (a node without a body reads as a leaf of whatever outcome its
    // head says, with no times); a body's extent and first are the tree's shape.
    std::span<NodeHead> heads() { return {heads_.data(), heads_.size()}; }
    std::span<const NodeHead> heads() const { return {heads_.data(), heads_.size()}; }
    std::span<NodeBody> bodies() { return {bodies_.data(), bodies_.size()}; }  // in node order
    std::span<const NodeBody> bodies() const { return {bodies_.data(), bodies_.size()}; }

    // Walks the nodes in order, handing `edit_node(index, head, body)` each one's index, its
    // head and its body to change in place (nullptr for a plain leaf hit): the writers' walk
    // (trace completion, the merge), with no rank per node.
    template <typename Edit>
    void edit(Edit&& edit_node) {
        edit_blocks(0, blocks(), edit_node);
    }
    // The blocks of 64 nodes the store holds: node i is in block i / 64.
    std::uint32_t blocks() const { return static_cast<std::uint32_t>(bits_.size()); }
    // The same walk over the nodes of blocks [first, end) alone: threads that each edit their
    // own blocks may edit one store at once.
    template <typename Edit>
    void edit_blocks(std::uint32_t first, std::uint32_t end, Edit&& edit_node) {
        // The arrays' addresses in locals: what edit_node writes might alias the arrays'.
        const std::uint64_t* const bits = bits_.data();
        NodeHead* const heads = heads_.data();
        end = std::min(end, blocks());
        if (first >= end) {
            return;
        }
        NodeBody* body = bodies_.data() + ranks_[first];
        const auto count = static_cast<std::uint32_t>(heads_.size());
        for (std::uint32_t block = first; block < end; ++block) {
            const std::uint64_t word = bits[block];  // one load for 64 nodes
            for (std::uint32_t i = block * 64; i < std::min(count, block * 64 + 64); ++i) {
                NodeBody* kept = (word >> (i % 64) & 1) != 0 ? body++ : nullptr;
                edit_node(i, heads[i], kept);
            }
        }
    }
    // The readers' walk from the last node to the first (in post-order a parent comes before
    // its children): `visit(index, head, body)` as edit's, read only. For the walks over every
    // node at the end of a run (Preorder, the HTML statistics), which build no Node where they
    // need a field or two.
    template <typename Visit>
    void walk_backwards(Visit&& visit) const {
        const NodeHead* const heads = heads_.data();
        const NodeBody* body = bodies_.data() + bodies_.size();
        const auto count = static_cast<std::uint32_t>(heads_.size());
        for (auto block = static_cast<std::uint32_t>(bits_.size()); block-- > 0;) {
            const std::uint64_t word = bits_[block];  // one load for 64 nodes
            for (std::uint32_t i = std::min(count, block * 64 + 64); i-- > block * 64;) {
                const bool kept = (word >> (i % 64) & 1) != 0;
                body -= kept ? 1 : 0;
                visit(i, heads[i], kept ? body : nullptr);
            }
        }
    }

    // Appends a node: in its head alone when it is a plain leaf hit, else with its body.
    void push_back(const Node& node);
    // Appends a plain leaf hit (its head's outcome a hit), or any node with its body: the tree
    // builder's paths, which know which they have.
    void push_leaf_hit(NodeHead head) {
        start_block();
        append_head(head);
    }
    void push_back(NodeHead head, const NodeBody& body) {
        start_block();
        bits_.back() |= std::uint64_t{1} << (heads_.size() % 64);
        append_head(head);
        bodies_.push_back(body);
    }
    // Room for `nodes` nodes in all, `bodies` of them with a body, as std::vector::reserve.
    void reserve(std::size_t nodes, std::size_t bodies);
    void reserve(std::size_t nodes) { reserve(nodes, nodes); }
    std::size_t capacity() const { return heads_.capacity(); }
    std::size_t body_capacity() const { return bodies_.capacity(); }
    void clear();
    void swap(NodeStore& other) noexcept;
    friend void swap(NodeStore& a, NodeStore& b) noexcept { a.swap(b); }

    // The bytes the nodes take, spare capacity left out: 8 a node, 24 more a body, and 12 a
    // block of 64 nodes (its bitmap word and its rank).
    std::size_t bytes_used() const;

  private:
    // The head is copied as the 8 bytes it is (a Node begins with the same fields, so the same
    // layout), not field by field, whose bit-fields took a dozen instructions to take apart and
    // put together whenever the node had to be in memory; nor through std::bit_cast, which went
    // through the stack even where the node could stay in registers.
    static Node joined(NodeHead head, const NodeBody& body) {
        Node node;
        std::memcpy(static_cast<void*>(&node), &head, sizeof head);
        node.extent = body.extent;
        node.first = body.first;
        node.start = body.start;
        node.end = body.end;
        return node;
    }

    // A head goes into the array in one 8-byte store. Built in place, field by field, g++ wrote
    // its bit-fields by reading their word back first: on memory not yet touched, that read
    // maps the kernel's zero page and the write then replaces it, two page faults a page where
    // one does, the second of them making every core running the program's threads flush its
    // TLB (an interprocessor interrupt each). The empty asm hides where the word came from, so
    // the compiler cannot take the store apart again.
    void append_head(NodeHead head) {
        auto word = std::bit_cast<std::uint64_t>(head);
#if defined(__GNUC__)
        asm("" : "+r"(word));
#endif
        heads_.push_back(std::bit_cast<NodeHead>(word));
    }

    static bool is_plain_leaf_hit(const Node& node, std::size_t i) {
        return node.outcome == Outcome::hit && node.extent == 0 && node.first == i &&
               node.start == 0 && node.end == 0;
    }
    static bool bit(const std::uint64_t* bits, std::size_t i) {
        return (bits[i / 64] >> (i % 64) & 1) != 0;
    }
    // The bodies of nodes [0, i): i's block's count plus the bits below i in its word.
    std::uint32_t bodies_before(std::size_t i) const {
        if (i == size()) {
            return static_cast<std::uint32_t>(bodies_.size());
        }
        const std::uint64_t below = bits_[i / 64] & ((std::uint64_t{1} << (i % 64)) - 1);
        return ranks_[i / 64] + static_cast<std::uint32_t>(std::popcount(below));
    }
    // A new node that starts a block of 64 starts its bitmap word and its rank.
    void start_block() {
        if (heads_.size() % 64 == 0) {
            bits_.push_back(0);
            ranks_.push_back(static_cast<std::uint32_t>(bodies_.size()));
        }
    }

    detail::LargeArray<NodeHead> heads_;
    detail::LargeArray<NodeBody> bodies_;
    detail::LargeArray<std::uint64_t> bits_;   // bit i % 64 of word i / 64: node i has a body
    detail::LargeArray<std::uint32_t> ranks_;  // per block of 64 nodes: the bodies before it
};

// Walks the nodes in order (or backwards), counting the bodies it passes, so that a step costs
// a bit test rather than a rank; a jump (+=, -) costs a rank.
class NodeStore::const_iterator {
  public:
    using iterator_concept = std::random_access_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // *it is a value, not a reference
    using value_type = Node;
    using difference_type = std::ptrdiff_t;
    using reference = Node;
    using pointer = void;

    const_iterator() = default;
    const_iterator(const NodeStore* store, std::size_t index)
        : store_(store),
          bits_(store->bits_.data()),
          heads_(store->heads_.data()),
          bodies_(store->bodies_.data()),
          index_(static_cast<std::uint32_t>(index)),
          bodies_before_(store->bodies_before(index)) {}

    Node operator*() const {
        return node_of(index_, heads_[index_], kept() ? &bodies_[bodies_before_] : nullptr);
    }
    Node operator[](difference_type n) const { return *(*this + n); }
    // The node's index in the store, and where its body is (kNoBody for a plain leaf hit).
    std::uint32_t index() const { return index_; }
    std::uint32_t body() const { return kept() ? bodies_before_ : kNoBody; }

    const_iterator& operator++() {
        bodies_before_ += kept() ? 1 : 0;
        ++index_;
        return *this;
    }
    const_iterator& operator--() {
        --index_;
        bodies_before_ -= kept() ? 1 : 0;
        return *this;
    }
    const_iterator operator++(int) {
        const_iterator was = *this;
        ++*this;
        return was;
    }
    const_iterator operator--(int) {
        const_iterator was = *this;
        --*this;
        return was;
    }
    const_iterator& operator+=(difference_type n) {
        return *this = const_iterator{store_, static_cast<std::size_t>(index_ + n)};
    }
    const_iterator& operator-=(difference_type n) { return *this += -n; }
    friend const_iterator operator+(const_iterator it, difference_type n) { return it += n; }
    friend const_iterator operator+(difference_type n, const_iterator it) { return it += n; }
    friend const_iterator operator-(const_iterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
        return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) {
        return a.index_ == b.index_;
    }
    friend std::strong_ordering operator<=>(const const_iterator& a, const const_iterator& b) {
        return a.index_ <=> b.index_;
    }

  private:
    bool kept() const { return bit(bits_, index_); }

    // The arrays' addresses held here, not read through the store at each step: a loop that
    // writes memory would otherwise load them again for every node.
    const NodeStore* store_ = nullptr;
    const std::uint64_t* bits_ = nullptr;
    const NodeHead* heads_ = nullptr;
    const NodeBody* bodies_ = nullptr;
    std::uint32_t index_ = 0;
    std::uint32_t bodies_before_ = 0;  // where this node's body is, when it has one
};

inline NodeStore::const_iterator NodeStore::begin() const { return {this, 0}; }
inline NodeStore::const_iterator NodeStore::end() const { return {this, size()}; }

static_assert(std::random_access_iterator<NodeStore::const_iterator>);

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
