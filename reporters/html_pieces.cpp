// The importance rule, the work of each node, and the pieces a sibling run is drawn as: on
// their own, folded, folds merged into one chip per provider, heaviest first. The tree the
// page first shows is built from them in html_tree.cpp.
#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "format.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

Importance::Importance(const ReportOptions& options, std::int64_t total_ns)
    : extent_(options.important_extent), percent_(options.important_percent), total_ns_(total_ns) {}

std::int64_t busy_ns(const Trace& trace, const std::vector<Work>& works) {
    std::int64_t busy = 0;
    for (const Work& work : works) {
        busy += work.of_thread();  // waiting is not being busy
    }
    return busy > 0 ? busy : trace.wall_ns;
}

Work::Work(const Preorder& order) : order_(&order) {
    // Most threads wait for nothing: their work is their nodes' durations, and their busy time
    // the roots', with no array of waits to zero and fill (a node's 8 bytes).
    if (!order.has_waits()) {
        of_thread_ = order.roots_duration_ns();
        return;
    }
    waits_.resize(order.size());
    for (std::uint32_t n = order.size(); n-- > 0;) {  // children before their parent
        if (is_wait(n)) {
            waits_[n] = order.duration_ns(n);  // a wait is all waiting
        }
        if (order.parent(n) != order.size()) {
            waits_[order.parent(n)] += waits_[n];
        } else {  // a root: its subtree, after it, is done
            of_thread_ += of(n);
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
        if (!piece.fold && !piece.loose) {
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
                result.push_back(Piece{n, order.end(n), false, std::nullopt, {}, true});
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

std::vector<Piece> all_pieces(const Preorder& order, std::uint32_t from, std::uint32_t to) {
    return pieces_where(order, from, to, [](std::uint32_t) { return true; });
}

}  // namespace qprof::detail::html
