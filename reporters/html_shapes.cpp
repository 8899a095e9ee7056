// The page's lists of the widest and deepest nodes: where one query fans out to many, and the
// longest chains of queries, one line per path from the root.
#include <algorithm>

#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

namespace {

constexpr std::size_t kShapeListLength = Preorder::kWidestNodes;  // the pre-order keeps as many

struct NodeRef {
    std::uint32_t thread;
    std::uint32_t n;
};

std::vector<NodeRef> refs_of(const TopShapes& top) {
    std::vector<NodeRef> nodes;
    for (const ShapeRank& rank : top.ranked()) {
        nodes.push_back(NodeRef{rank.thread, rank.n});
    }
    return nodes;
}

// The widest nodes of every thread, from each thread's own.
std::vector<NodeRef> widest_nodes(const std::vector<Preorder>& orders) {
    TopShapes top{kShapeListLength};
    for (std::uint32_t t = 0; t < orders.size(); ++t) {
        for (ShapeRank rank : orders[t].widest()) {
            rank.thread = t;
            top.offer(rank);
        }
    }
    return refs_of(top);
}

// The deepest first children (siblings at the bottom of a chain say the same), more of them than
// are shown, since one line stands for each path from the root. In pre-order, where nodes that
// rank alike come in their rank's order: a scan's thousands of hits at its greatest depth are
// turned away on a comparison each.
std::vector<NodeRef> deepest_first_children(const std::vector<Preorder>& orders) {
    TopShapes top{kShapeListLength * 20};
    for (std::uint32_t t = 0; t < orders.size(); ++t) {
        const Preorder& order = orders[t];
        std::uint32_t floor = top.floor();
        for (std::uint32_t n = 0; n < order.size(); ++n) {
            if (const std::uint32_t depth = order.depth(n);
                depth >= floor && order.parent(n) + 1 == n) {
                top.offer(ShapeRank{depth, order.duration_ns(n), t, n});
                floor = top.floor();
            }
        }
    }
    return refs_of(top);
}

// `counts[i]`, when given, is how many nodes nodes[i] stands for: " ×N" after its text.
void write_shape_list(std::ostream& out, std::string_view id, const Trace& trace,
                      const std::vector<Preorder>& orders, const std::vector<Work>& works,
                      const std::vector<NodeRef>& nodes, std::int64_t total_ns,
                      const std::vector<std::size_t>& counts = {}) {
    out << "<ol id=\"" << id << "\">";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const NodeRef& ref = nodes[i];
        const std::size_t count = i < counts.size() ? counts[i] : 1;
        const Preorder& order = orders[ref.thread];
        const Node& node = order.node(ref.n);
        out << "<li><a href=\"#\" data-thread=\"" << ref.thread << "\" data-n=\"" << ref.n << "\">"
            << html_escape(trace.name_of(order.thread(), order.post_index(ref.n)))
            << " \u00b7 extent " << node.extent << " \u00b7 depth " << order.depth(ref.n)
            << " \u00b7 "
            << html_escape(works[ref.thread].is_wait(ref.n)
                               ? "waiting"
                               : share_text(works[ref.thread].of(ref.n), total_ns))
            << (count > 1 ? " <span class=\"count\" title=\"" + with_thousands(count) +
                                " chains of queries with this path from the root; the link "
                                "shows the longest\">\u00d7" +
                                with_thousands(count) + "</span>"
                          : "")
            << "</a>"
            << (orders.size() > 1 ? " <small>" + html_escape(order.thread().name) + "</small>" : "")
            << "</li>";
    }
    out << "</ol>\n";
}

// The first nodes of `nodes` that share no ancestor at half their depth: deep nodes of one
// chain of queries say the same thing.
std::vector<NodeRef> one_per_chain(const std::vector<Preorder>& orders,
                                   const std::vector<NodeRef>& nodes) {
    std::vector<NodeRef> kept;
    std::vector<NodeRef> chains;
    for (const NodeRef& node : nodes) {
        const Preorder& order = orders[node.thread];
        NodeRef chain = node;
        for (std::uint32_t up = order.depth(node.n) - order.depth(node.n) / 2; up > 0; --up) {
            chain.n = order.parent(chain.n);
        }
        const bool seen = std::any_of(chains.begin(), chains.end(), [&](const NodeRef& other) {
            return other.thread == chain.thread && other.n == chain.n;
        });
        if (!seen) {
            chains.push_back(chain);
            kept.push_back(node);
        }
    }
    return kept;
}

// Whether nodes a and b lie at the ends of the same path from the root: one thread, and at
// each depth the same provider.
bool same_path(const Trace& trace, const std::vector<Preorder>& orders, NodeRef a, NodeRef b) {
    const Preorder& order = orders[a.thread];
    if (a.thread != b.thread || order.depth(a.n) != order.depth(b.n)) {
        return false;
    }
    // At one depth, both reach a root together; above a common ancestor the path is one.
    for (std::uint32_t x = a.n, y = b.n; x != y; x = order.parent(x), y = order.parent(y)) {
        if (trace.sites[order.node(x).site].provider_index !=
            trace.sites[order.node(y).site].provider_index) {
            return false;
        }
    }
    return true;
}

// `nodes` one per path from the root, in their order, up to kShapeListLength paths, each with
// how many of `nodes` end it: ten chains of the same queries are one line, "×10".
std::vector<NodeRef> one_per_path(const Trace& trace, const std::vector<Preorder>& orders,
                                  const std::vector<NodeRef>& nodes,
                                  std::vector<std::size_t>& counts) {
    std::vector<NodeRef> kept;
    counts.clear();
    for (const NodeRef& node : nodes) {
        const auto alike = std::find_if(kept.begin(), kept.end(), [&](const NodeRef& other) {
            return same_path(trace, orders, other, node);
        });
        if (alike != kept.end()) {
            ++counts[static_cast<std::size_t>(alike - kept.begin())];
        } else if (kept.size() < kShapeListLength) {
            kept.push_back(node);
            counts.push_back(1);
        }
    }
    return kept;
}

}  // namespace

void write_shapes(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                  const std::vector<Work>& works, std::int64_t total_ns) {
    const std::vector<NodeRef> widest = widest_nodes(orders);
    std::vector<std::size_t> chains;  // per deepest node, the chains of its path
    const std::vector<NodeRef> deepest =
        one_per_path(trace, orders, one_per_chain(orders, deepest_first_children(orders)), chains);
    if (widest.empty() && deepest.empty()) {
        return;  // no node has a child: nothing to point out
    }
    out << "<section id=\"shapes\">\n<h2>Widest nodes</h2>\n<p>Most immediate children: a "
           "change below them reruns many queries.</p>\n";
    write_shape_list(out, "widest", trace, orders, works, widest, total_ns);
    out << "<h2>Deepest nodes</h2>\n<p>Longest chains of queries, one per path from the root "
           "(×N: N chains of the same queries).</p>\n";
    write_shape_list(out, "deepest", trace, orders, works, deepest, total_ns, chains);
    out << "</section>\n";
}

}  // namespace qprof::detail::html
