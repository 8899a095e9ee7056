// The importance rule, the pieces a sibling run is drawn as, and a thread's tree as the page
// first shows it.
#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <unordered_map>

#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

// A wide node is important only if it also takes this share of the time (or PERCENT, when
// that is lower): a build graph has thousands of cheap nodes with 6 children.
constexpr double kExtentFloorPercent = 0.1;

Importance::Importance(const ReportOptions& options, std::int64_t total_ns)
    : extent_(options.important_extent), percent_(options.important_percent), total_ns_(total_ns) {}

bool Importance::operator()(const Node& node) const {
    if (node.outcome == Outcome::hit) {
        return false;
    }
    // Without a total (an empty or instant session) shares mean nothing: extent decides.
    if (total_ns_ <= 0) {
        return node.extent >= extent_;
    }
    const double percent =
        static_cast<double>(node.duration_ns()) * 100.0 / static_cast<double>(total_ns_);
    const double floor = std::min(percent_, kExtentFloorPercent);
    return percent >= percent_ || (node.extent >= extent_ && percent >= floor);
}

std::int64_t busy_ns(const Trace& trace, const std::vector<Work>& works) {
    std::int64_t busy = 0;
    for (const Work& work : works) {
        busy += work.of_run(0, work.size());  // waiting is not being busy
    }
    return busy > 0 ? busy : trace.wall_ns;
}

Work::Work(const Preorder& order) : order_(&order), waits_(order.size()) {
    for (std::uint32_t n = order.size(); n-- > 0;) {  // children before their parent
        if (is_wait(n)) {
            waits_[n] = order.duration_ns(n);  // a wait is all waiting
        }
        if (order.parent(n) != order.size()) {
            waits_[order.parent(n)] += waits_[n];
        }
    }
}

std::int64_t Work::of_run(std::uint32_t from, std::uint32_t to) const {
    std::int64_t sum = 0;
    for (std::uint32_t n = from; n < to; n = order_->end(n)) {
        sum += of(n);
    }
    return sum;
}

void merge_folds(const Trace& trace, const Preorder& order, std::vector<Piece>& drawn) {
    const auto folds =
        std::count_if(drawn.begin(), drawn.end(), [](const Piece& piece) { return piece.fold; });
    if (folds < 2 || order.depth(drawn.front().from) >= kDeepDepth) {
        return;
    }
    std::vector<Piece> merged;
    std::vector<Piece> chips;  // in the order their providers first appear
    std::uint32_t from = order.size();
    std::uint32_t to = 0;
    for (Piece& piece : drawn) {
        if (!piece.fold) {
            merged.push_back(std::move(piece));
            continue;
        }
        from = std::min(from, piece.from);
        to = std::max(to, piece.to);
        for (std::uint32_t n = piece.from; n < piece.to; n = order.end(n)) {
            const std::uint32_t provider = trace.sites[order.node(n).site].provider_index;
            auto chip = std::find_if(chips.begin(), chips.end(),
                                     [&](const Piece& c) { return c.provider == provider; });
            if (chip == chips.end()) {
                chip = chips.insert(chips.end(), Piece{0, 0, true, provider, {}});
            }
            chip->members.push_back(n);
        }
    }
    for (Piece& chip : chips) {
        chip.from = from;
        chip.to = to;
        merged.push_back(std::move(chip));
    }
    drawn = std::move(merged);
}

std::string chip_text(const Trace& trace, const Preorder& order, std::uint32_t provider,
                      const std::vector<std::uint32_t>& members) {
    std::uint64_t counts[3] = {};  // runs, hits, waits
    std::int64_t ns = 0;
    for (const std::uint32_t n : members) {
        const Outcome outcome = order.node(n).outcome;
        ++counts[outcome == Outcome::hit ? 1 : outcome == Outcome::blocked ? 2 : 0];
        ns += order.duration_ns(n);
    }
    constexpr std::string_view kKinds[3][2] = {
        {" run", " runs"}, {" hit", " hits"}, {" wait", " waits"}};
    std::string text = "\u22ef ";
    bool named = false;
    for (std::size_t kind = 0; kind < 3; ++kind) {
        if (counts[kind] == 0) {
            continue;
        }
        text += named ? ", " : "";
        text += with_thousands(counts[kind]);
        if (!named) {
            text += ' ';
            text += trace.providers[provider].provider;
            named = true;
        }
        text += kKinds[kind][counts[kind] == 1 ? 0 : 1];
    }
    if (ns > 0) {
        text += " \u00b7 ";
        text += duration_text(ns);
    }
    return text;
}

void sort_heaviest_first(const Preorder& order, const Work& work, std::vector<Piece>& drawn) {
    struct Ranked {
        bool wait;
        std::int64_t ns;  // work; for a wait, its duration
        Piece piece;
    };
    std::vector<Ranked> ranked;  // a fold's work is summed once
    ranked.reserve(drawn.size());
    for (Piece& piece : drawn) {
        const bool wait = !piece.fold && work.is_wait(piece.from);
        std::int64_t ns = wait ? order.duration_ns(piece.from) : 0;
        if (piece.provider) {
            for (const std::uint32_t n : piece.members) {
                ns += work.of(n);
            }
        } else if (!wait) {
            ns = work.of_run(piece.from, piece.to);
        }
        ranked.push_back(Ranked{wait, ns, std::move(piece)});
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        return a.wait != b.wait ? b.wait : a.ns > b.ns;
    });
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        drawn[i] = std::move(ranked[i].piece);
    }
}

namespace {

// The pieces of [from, to) where the nodes for which `alone` holds are drawn on their own.
template <typename Alone>
std::vector<Piece> pieces_where(const Preorder& order, std::uint32_t from, std::uint32_t to,
                                Alone alone) {
    constexpr std::uint32_t kNoRun = std::numeric_limits<std::uint32_t>::max();
    std::vector<Piece> result;
    std::uint32_t run = kNoRun;  // start of the current run of other siblings
    auto close_run = [&](std::uint32_t run_end) {
        if (run != kNoRun && run_end - run > kSmallRun) {
            result.push_back(Piece{run, run_end, true, std::nullopt, {}});
        } else if (run != kNoRun) {
            for (std::uint32_t n = run; n < run_end; n = order.end(n)) {
                result.push_back(Piece{n, order.end(n), false, std::nullopt, {}});
            }
        }
        run = kNoRun;
    };
    for (std::uint32_t n = from; n < to; n = order.end(n)) {
        const bool on_its_own = alone(n);
        if (!on_its_own && run != kNoRun) {
            continue;
        }
        close_run(n);
        if (result.size() >= kMaxPieces) {  // the rest in one fold: drawing stays cheap
            result.push_back(Piece{n, to, true, std::nullopt, {}});
            return result;
        }
        if (on_its_own) {
            result.push_back(Piece{n, order.end(n), false, std::nullopt, {}});
        } else {
            run = n;
        }
    }
    close_run(to);
    return result;
}

}  // namespace

std::vector<Piece> pieces(const Preorder& order, const Importance& important, std::uint32_t from,
                          std::uint32_t to, std::optional<std::int64_t> min_ns) {
    if (min_ns) {
        return pieces_where(order, from, to, [&](std::uint32_t n) {
            return order.node(n).outcome != Outcome::hit && order.duration_ns(n) >= *min_ns;
        });
    }
    return pieces_where(order, from, to, [&](std::uint32_t n) { return important(order.node(n)); });
}

namespace {

// Which children an open node draws on their own: its important ones (nullopt), or those at
// least this long, important or not.
using Rule = std::optional<std::int64_t>;

// Decides which nodes start open, and how far, then writes the markup.
class InitialTree {
  public:
    InitialTree(std::ostream& out, const Trace& trace, const Preorder& order,
                const Importance& important, SiblingOrder sibling_order)
        : out_(out),
          trace_(trace),
          order_(order),
          important_(important),
          sibling_order_(sibling_order),
          work_(order) {}

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
    static constexpr std::size_t kMinOpening = 8;  // elements worth opening a node for

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
    // children that fit in `room` elements; nullopt when not even the longest one does.
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
        for (std::size_t k = std::min(durations.size(), room / 3); k > 0; k /= 2) {
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
            draw_all_ ? pieces_where(order_, from, to, [](std::uint32_t) { return true; })
                      : pieces(order_, important_, from, to, rule);
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
        out_ << "\">";
        if (important_(node)) {
            out_ << "<span class=\"label\">"
                 << html_escape(node_label(trace_, order_, work_, n, important_.total_ns()))
                 << "</span>";
        }
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
    Work work_;
    std::unordered_map<std::uint32_t, Rule> opened_;
    std::priority_queue<std::pair<std::int64_t, std::uint32_t>> closed_;  // longest on top
    std::size_t drawn_ = 0;
    bool draw_all_ = false;
};

}  // namespace

std::size_t write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                               const Importance& important, std::size_t budget,
                               SiblingOrder sibling_order) {
    InitialTree tree{out, trace, order, important, sibling_order};
    tree.plan(budget);
    tree.write();
    return tree.drawn();
}

}  // namespace qprof::detail::html
