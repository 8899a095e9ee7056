// The trace in pre-order, the importance rule, and a thread's tree as the page first shows it.
#include <optional>
#include <queue>

#include "html_parts.hpp"

namespace qprof::detail::html {

Importance::Importance(const ReportOptions& options, std::int64_t wall_ns)
    : extent_(options.important_extent), percent_(options.important_percent), wall_ns_(wall_ns) {}

bool Importance::operator()(const Node& node) const {
    if (node.outcome == Outcome::hit) {
        return false;
    }
    return node.extent >= extent_ || static_cast<double>(node.duration_ns()) * 100.0 >=
                                         percent_ * static_cast<double>(wall_ns_);
}

std::vector<Piece> pieces(const Preorder& order, const Importance& important, std::uint32_t from,
                          std::uint32_t to) {
    std::vector<Piece> result;
    std::optional<std::uint32_t> run;  // start of the current run of unimportant siblings
    auto close_run = [&](std::uint32_t run_end) {
        if (run && run_end - *run > kSmallRun) {
            result.push_back(Piece{*run, run_end, true});
        } else if (run) {
            for (std::uint32_t n = *run; n < run_end; n = order.end(n)) {
                result.push_back(Piece{n, order.end(n), false});
            }
        }
        run.reset();
    };
    for (std::uint32_t n = from; n < to; n = order.end(n)) {
        const bool is_important = important(order.node(n));
        if (!is_important && run) {
            continue;
        }
        close_run(n);
        if (result.size() >= kMaxPieces) {  // the rest in one fold: drawing stays cheap
            result.push_back(Piece{n, to, true});
            return result;
        }
        if (is_important) {
            result.push_back(Piece{n, order.end(n), false});
        } else {
            run = n;
        }
    }
    close_run(to);
    return result;
}

namespace {

// Decides which important nodes start open, then writes the markup.
class InitialTree {
  public:
    InitialTree(std::ostream& out, const Trace& trace, const Preorder& order,
                const Importance& important)
        : out_(out), trace_(trace), order_(order), important_(important), open_(order.size()) {}

    // Opens important nodes, longest first, while their children fit in the budget.
    void plan(std::size_t budget) {
        std::priority_queue<std::pair<std::int64_t, std::uint32_t>> closed;
        std::size_t drawn = 0;
        auto show = [&](std::uint32_t from, std::uint32_t to) {
            for (const Piece& piece : pieces(order_, important_, from, to)) {
                drawn += elements(piece);
                if (!piece.fold && important_(order_.node(piece.from))) {
                    closed.emplace(order_.duration_ns(piece.from), piece.from);
                }
            }
        };
        show(0, order_.size());
        while (!closed.empty()) {
            const std::uint32_t n = closed.top().second;
            closed.pop();
            std::size_t cost = 0;
            for (const Piece& piece : pieces(order_, important_, n + 1, order_.end(n))) {
                cost += elements(piece);
            }
            if (cost > 0 && drawn + cost - 1 <= budget) {  // its children replace one fold
                open_[n] = true;
                show(n + 1, order_.end(n));
                --drawn;
            }
        }
    }

    void write() { write_pieces(0, order_.size()); }

  private:
    // Elements drawn for a piece: a fold; or a node, and one fold for its children.
    std::size_t elements(const Piece& piece) const {
        return piece.fold ? 1 : 1 + (piece.to - piece.from > 1 ? 1 : 0);
    }

    void write_pieces(std::uint32_t from, std::uint32_t to) {
        for (const Piece& piece : pieces(order_, important_, from, to)) {
            if (piece.fold) {
                write_fold(piece.from, piece.to);
            } else {
                write_node(piece.from);
            }
        }
    }

    void write_fold(std::uint32_t from, std::uint32_t to) {
        out_ << "<span class=\"fold\" data-from=\"" << from << "\" data-to=\"" << to << "\">"
             << escape(fold_text(order_, from, to, important_.wall_ns())) << "</span>";
    }

    void write_node(std::uint32_t n) {
        const Node& node = order_.node(n);
        const std::string classes = node_class(order_, n, important_);
        if (node.outcome == Outcome::hit) {
            out_ << "<i class=\"" << classes << "\" data-n=\"" << n << "\"></i>";
            return;
        }
        out_ << "<div class=\"" << classes << "\" data-n=\"" << n << "\">";
        if (important_(node)) {
            out_ << "<span class=\"label\">"
                 << escape(node_label(trace_, node, important_.wall_ns())) << "</span>";
        }
        if (open_[n]) {
            write_pieces(n + 1, order_.end(n));
        } else if (order_.end(n) > n + 1) {
            write_fold(n + 1, order_.end(n));
        }
        out_ << "</div>";
    }

    std::ostream& out_;
    const Trace& trace_;
    const Preorder& order_;
    const Importance& important_;
    std::vector<bool> open_;
};

}  // namespace

void write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                        const Importance& important, std::size_t budget) {
    InitialTree tree{out, trace, order, important};
    tree.plan(budget);
    tree.write();
}

}  // namespace qprof::detail::html
