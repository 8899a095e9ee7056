// A thread's tree as the page first shows it: which nodes start open, and how far, within the
// page's budget of elements, and their markup. The pieces it draws are html_pieces.cpp's. The
// viewer draws a thread the page holds no tree for by the same rules (initialPlan in render.js,
// its twin; the browser tests compare the two drawings of every tree the page holds).
#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>

#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

namespace {

// Which children an open node draws on their own: its important ones (nullopt), or those at
// least this long, important or not.
using Rule = std::optional<std::int64_t>;

using layout::kLongestChildren;
using layout::kMinOpening;

// Decides which nodes start open, and how far, then writes the markup.
class InitialTree {
  public:
    InitialTree(std::ostream& out, const Trace& trace, const Preorder& order, const Work& work,
                const Importance& important, SiblingOrder sibling_order)
        : out_(out),
          trace_(trace),
          order_(order),
          important_(important),
          sibling_order_(sibling_order),
          work_(work) {}

    std::size_t drawn() const { return drawn_; }

    void plan(std::size_t budget) {
        if (std::size_t{order_.size()} * 2 <= budget) {
            draw_all_ = true;  // a small trace is shown whole
            drawn_ = order_.size();
            return;
        }
        const std::vector<Piece> roots = show(0, order_.size(), std::nullopt);
        std::int64_t roots_ns = 0;
        for (const Piece& piece : roots) {
            roots_ns += piece.fold ? 0 : order_.duration_ns(piece.from);
        }
        // Every root first, each within its share of the budget, so that no pass that takes
        // the time stays shut because a shorter one took the room.
        for (const Piece& piece : roots) {
            if (!piece.fold && roots_ns > 0) {
                const double share = static_cast<double>(order_.duration_ns(piece.from)) /
                                     static_cast<double>(roots_ns);
                open(piece.from, std::max(kMinOpening, static_cast<std::size_t>(share * budget)));
            }
        }
        while (!closed_.empty() && drawn_ + kMinOpening <= budget) {
            const std::uint32_t n = closed_.top().second;
            closed_.pop();
            open(n, budget - drawn_);
        }
    }

    // Depth-first with an explicit stack of sibling lists: a chain of 100,000 queries must not
    // take 100,000 frames of the C++ stack.
    void write() {
        struct Siblings {
            std::vector<Piece> drawn;
            std::size_t next = 0;
            bool in_box = false;  // the children of a box, closed by its "</div>"; not a row's
        };
        std::vector<Siblings> open;
        open.push_back(Siblings{drawn_pieces(0, order_.size(), std::nullopt)});
        while (!open.empty()) {
            Siblings& top = open.back();
            if (top.next == top.drawn.size()) {
                out_ << (top.in_box ? "</div>" : "");
                open.pop_back();
                continue;
            }
            const Piece piece = top.drawn[top.next++];
            if (piece.provider) {
                write_chip(piece);
            } else if (piece.fold) {
                write_fold(piece.from, piece.to);
            } else if (std::optional<std::vector<Piece>> children = write_node(piece.from)) {
                open.push_back(Siblings{std::move(*children), 0, !row(piece.from)});
            }
        }
    }

  private:
    // Adds pieces to what is drawn; queues their important nodes to be opened later.
    std::vector<Piece> show(std::uint32_t from, std::uint32_t to, Rule rule) {
        std::vector<Piece> shown = pieces(order_, important_, from, to, rule);
        for (const Piece& piece : shown) {
            drawn_ += elements(piece);
            if (!piece.fold && important_(order_.node(piece.from)) && !small(piece.from)) {
                closed_.emplace(order_.duration_ns(piece.from), piece.from);
            }
        }
        return shown;
    }

    // Opens n if some of its children fit in `room` elements.
    void open(std::uint32_t n, std::size_t room) {
        if (small(n) || opened_.contains(n)) {
            return;
        }
        if (const std::optional<Rule> rule = fitting_rule(n, room + 1)) {
            opened_.emplace(n, *rule);
            --drawn_;  // the children replace the node's one fold
            show(n + 1, order_.end(n), *rule);
        }
    }

    // All important children when they fit and are not one fold again; else the longest
    // children that fit in `room` elements, kLongestChildren of them (more only when several
    // tie at the threshold); nullopt when not even the longest one does.
    std::optional<Rule> fitting_rule(std::uint32_t n, std::size_t room) const {
        const std::vector<Piece> important = pieces(order_, important_, n + 1, order_.end(n));
        if (cost(important) <= room && !(important.size() == 1 && important[0].fold)) {
            return Rule{};
        }
        std::vector<std::int64_t> durations;
        for (std::uint32_t c = n + 1; c < order_.end(n); c = order_.end(c)) {
            if (order_.node(c).outcome != Outcome::hit) {
                durations.push_back(order_.duration_ns(c));
            }
        }
        std::sort(durations.begin(), durations.end(), std::greater<>());
        for (std::size_t k = std::min({durations.size(), room / 3, kLongestChildren}); k > 0;
             k /= 2) {
            if (cost(pieces(order_, important_, n + 1, order_.end(n), durations[k - 1])) <= room) {
                return Rule{durations[k - 1]};
            }
        }
        return std::nullopt;
    }

    std::size_t cost(const std::vector<Piece>& drawn) const {
        std::size_t total = 0;
        for (const Piece& piece : drawn) {
            total += elements(piece);
        }
        return total;
    }

    // A node with kSmallRun descendants or fewer shows them: a fold would be no smaller.
    bool small(std::uint32_t n) const { return order_.end(n) - n - 1 <= kSmallRun; }

    // Elements drawn for a piece: a fold; a small subtree whole; or a node and a fold.
    std::size_t elements(const Piece& piece) const {
        if (piece.fold) {
            return 1;
        }
        return small(piece.from) ? piece.to - piece.from : 2;
    }

    std::vector<Piece> drawn_pieces(std::uint32_t from, std::uint32_t to, Rule rule) const {
        std::vector<Piece> drawn =
            draw_all_ ? all_pieces(order_, from, to) : pieces(order_, important_, from, to, rule);
        if (!draw_all_ && !drawn.empty()) {
            merge_folds(trace_, order_, drawn);
        }
        if (sibling_order_ == SiblingOrder::heaviest) {
            sort_heaviest_first(order_, work_, drawn);
        }
        return drawn;
    }

    void write_fold(std::uint32_t from, std::uint32_t to) {
        out_ << "<span class=\"fold\" data-from=\"" << from << "\" data-to=\"" << to << "\">"
             << html_escape(fold_text(trace_, order_, work_, from, to, important_.total_ns()))
             << "</span>";
    }

    void write_chip(const Piece& chip) {
        out_ << "<span class=\"fold\" data-from=\"" << chip.from << "\" data-to=\"" << chip.to
             << "\" data-provider=\"" << *chip.provider << "\">"
             << html_escape(chip_text(trace_, order_, *chip.provider, chip.members)) << "</span>";
    }

    // From kDeepDepth on a node is a row of a flat list: its element holds only its label,
    // its children follow it as siblings.
    bool row(std::uint32_t n) const { return order_.depth(n) >= kDeepDepth; }

    // Writes node n up to its children; returns them when they are drawn (before the node's
    // closing tag, or after a row), or writes the node whole and returns nullopt.
    std::optional<std::vector<Piece>> write_node(std::uint32_t n) {
        const Node& node = order_.node(n);
        const std::string classes = node_class(trace_, order_, work_, n, important_);
        if (node.outcome == Outcome::hit) {
            out_ << "<i class=\"" << classes << "\" data-n=\"" << n << "\"></i>";
            return std::nullopt;
        }
        out_ << "<div class=\"" << classes << "\" data-n=\"" << n;
        if (row(n)) {
            out_ << "\" data-depth=\"" << order_.depth(n);  // shown in the row's gutter
        }
        // Every box but a hit's dot says what it is: one drawn because it is long, not
        // important, is what a user hunting a slow query looks for (labelOf in texts.js).
        out_ << "\">" << label_html(trace_, order_, work_, n, important_.total_ns());
        out_ << (row(n) ? "</div>" : "");
        const auto opened = opened_.find(n);
        if (small(n) || draw_all_ || opened != opened_.end()) {
            return drawn_pieces(n + 1, order_.end(n),
                                opened != opened_.end() ? opened->second : Rule{});
        }
        write_fold(n + 1, order_.end(n));
        out_ << (row(n) ? "" : "</div>");
        return std::nullopt;
    }

    std::ostream& out_;
    const Trace& trace_;
    const Preorder& order_;
    const Importance& important_;
    SiblingOrder sibling_order_;
    const Work& work_;
    std::unordered_map<std::uint32_t, Rule> opened_;
    std::priority_queue<std::pair<std::int64_t, std::uint32_t>> closed_;  // longest on top
    std::size_t drawn_ = 0;
    bool draw_all_ = false;
};

}  // namespace

std::size_t write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                               const Importance& important, std::size_t budget,
                               SiblingOrder sibling_order) {
    return write_initial_tree(out, trace, order, Work{order}, important, budget, sibling_order);
}

std::size_t write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                               const Work& work, const Importance& important, std::size_t budget,
                               SiblingOrder sibling_order) {
    InitialTree tree{out, trace, order, work, important, sibling_order};
    tree.plan(budget);
    tree.write();
    return tree.drawn();
}

}  // namespace qprof::detail::html
