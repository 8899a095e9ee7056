// Per-provider statistics: runs, hits, waits, mean, median, max, a duration histogram, the
// slowest runs and the most-asked keys, gathered in one pass over every thread's nodes and
// finished in html_stats_finish.cpp.
#include "html_stats.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <utility>

#include "ancestor_stack.hpp"
#include "html_parts.hpp"

namespace qprof::detail::html {

namespace {

// A provider's times as the page's own nodes add them up, in nanoseconds: the viewer sums the
// same nodes for a time range (range_scan.js), so that the whole run gives these numbers exactly.
// The trace's ProviderTotals are summed in clock ticks and converted once, which differs from
// the sum of the nodes' converted durations by rounding.
struct Times {
    std::int64_t total = 0;  // its outermost nodes: a provider inside itself counts once
    std::int64_t work = 0;   // the same nodes less the waits inside them
    std::int64_t self = 0;   // of its nodes that are not waits: a wait's self is waiting
    std::int64_t wait = 0;   // its waits, but those inside a wait of its own: each once
};

// Adds one thread's nodes to `times`, in one pre-order walk. `open` counts, per provider, its
// nodes among the ancestors of the node walked, so that an outermost node is one whose count
// is 0, and `open_waits` its waits there, so that a wait inside a wait of its provider (whose
// time holds it) is not counted again; the stack holds those ancestors with their children's
// summed durations, for self.
void add_times(const Trace& trace, const Preorder& order, const Work& work,
               std::vector<Times>& times) {
    struct Open {
        std::uint32_t n;
        std::int64_t children_ns;
    };
    std::vector<std::uint32_t> open(trace.providers.size());
    std::vector<std::uint32_t> open_waits(trace.providers.size());
    std::vector<Open> stack;
    const auto provider = [&](std::uint32_t n) {
        return trace.sites[order.node(n).site].provider_index;
    };
    const auto close = [&](const Open& done) {
        --open[provider(done.n)];
        if (work.is_wait(done.n)) {
            --open_waits[provider(done.n)];
        } else {
            times[provider(done.n)].self += order.duration_ns(done.n) - done.children_ns;
        }
    };
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        while (!stack.empty() && order.end(stack.back().n) <= n) {
            close(stack.back());
            stack.pop_back();
        }
        const std::int64_t ns = order.duration_ns(n);
        if (!stack.empty()) {
            stack.back().children_ns += ns;
        }
        if (order.node(n).outcome == Outcome::hit) {
            continue;
        }
        Times& sums = times[provider(n)];
        if (work.is_wait(n) && open_waits[provider(n)]++ == 0) {
            sums.wait += ns;
        }
        if (open[provider(n)] == 0) {
            sums.total += ns;
            sums.work += work.of(n);
        }
        ++open[provider(n)];
        stack.push_back(Open{n, 0});
    }
    for (; !stack.empty(); stack.pop_back()) {
        close(stack.back());
    }
}

}  // namespace

std::vector<ProviderStats> provider_stats(const Trace& trace, const std::vector<Preorder>& orders) {
    std::vector<Work> works;
    works.reserve(orders.size());
    for (const Preorder& order : orders) {
        works.emplace_back(order);
    }
    return provider_stats(trace, orders, works);
}

namespace {

// What the statistics gather over every thread, before each provider's are finished.
struct Gathered {
    explicit Gathered(const Trace& trace)
        : stats(trace.providers.size()),
          durations(trace.providers.size()),
          times(trace.providers.size()),
          recent_edges(trace.providers.size()),
          provider_of_site(trace.sites.size()) {
        for (std::size_t site = 0; site < trace.sites.size(); ++site) {
            provider_of_site[site] = trace.sites[site].provider_index;
        }
    }

    // Earlier threads, then earlier nodes in pre-order, win ties: the order the page lists them
    // in whatever order they were met.
    void keep_if_slow(std::vector<RunRef>& slowest, const RunRef& run) {
        const auto before = [](const RunRef& a, const RunRef& b) {
            return a.ns != b.ns           ? a.ns > b.ns
                   : a.thread != b.thread ? a.thread < b.thread
                                          : a.n < b.n;
        };
        if (slowest.size() == kSlowestRuns && !before(run, slowest.back())) {
            return;
        }
        slowest.insert(std::upper_bound(slowest.begin(), slowest.end(), run, before), run);
        if (slowest.size() > kSlowestRuns) {
            slowest.pop_back();
        }
    }

    // One node's counts, run, call edge and key: what does not depend on the walk's order. In
    // line in both walks: called, it took 22 instructions a node more.
    [[gnu::always_inline]] void count(std::uint32_t t, std::uint32_t n, Outcome outcome,
                                      std::uint32_t p, std::int64_t ns, std::uint32_t key,
                                      std::uint32_t parent_provider, bool has_parent) {
        ProviderStats& s = stats[p];
        if (outcome == Outcome::hit) {
            ++s.hits;
        } else if (outcome == Outcome::blocked) {
            ++s.waits;
        } else {
            ++s.runs;
            durations[p].push_back(ns);
            keep_if_slow(s.slowest, RunRef{t, n, ns, key});
        }
        const std::uint64_t caller = has_parent ? parent_provider : kTopLevel;
        CallEdge& edge = edge_of(p, caller << 32 | p);
        ++edge.calls;
        edge.ns += ns;
        if (key != 0 && outcome != Outcome::blocked) {
            KeyAsks& k = asks[std::uint64_t{p} << 32 | key];
            k.key = key;
            ++k.asked;
            k.hits += outcome == Outcome::hit;
            k.ns += outcome == Outcome::hit ? 0 : ns;
        }
    }

    // A provider is mostly called by one of the two callers that called it last (a query
    // run at the top that asks itself again below, as a scan does, alternates them): those
    // edges, per callee, are found without hashing (elements of an unordered_map never move).
    struct RecentEdges {
        std::array<std::uint64_t, 2> ids{~std::uint64_t{0}, ~std::uint64_t{0}};  // newest first
        std::array<CallEdge*, 2> edges{};
    };
    [[gnu::always_inline]] CallEdge& edge_of(std::uint32_t callee, std::uint64_t id) {
        RecentEdges& recent = recent_edges[callee];
        if (id == recent.ids[0]) [[likely]] {
            return *recent.edges[0];
        }
        if (id == recent.ids[1]) {
            return *recent.edges[1];
        }
        return remember_edge(recent, id);
    }
    [[gnu::noinline]] CallEdge& remember_edge(RecentEdges& recent, std::uint64_t id) {
        recent.ids = {id, recent.ids[0]};
        recent.edges = {&edges[id], recent.edges[0]};
        return *recent.edges[0];
    }

    // `calls` hits of `callee` asked by `caller` (kTopLevel for a root), counted apart.
    void add_hits(std::uint32_t caller, std::uint32_t callee, std::uint64_t calls) {
        stats[callee].hits += calls;
        edge_of(callee, std::uint64_t{caller} << 32 | callee).calls += calls;
    }

    std::vector<ProviderStats> stats;
    std::vector<std::vector<std::int64_t>> durations;
    std::unordered_map<std::uint64_t, KeyAsks> asks;    // by provider << 32 | key
    std::unordered_map<std::uint64_t, CallEdge> edges;  // by caller << 32 | callee
    std::vector<Times> times;
    std::vector<RecentEdges> recent_edges;  // per callee
    std::vector<std::uint32_t> provider_of_site;
};

// One thread in pre-order, through the Preorder's index: any tree, hits with children too.
void gather_in_preorder(const Trace& trace, std::uint32_t t, const Preorder& order,
                        const Work& work, Gathered& all) {
    add_times(trace, order, work, all.times);
    const bool keyed = !order.thread().keys.empty();
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        const Node& node = order.node(n);
        const std::uint32_t p = all.provider_of_site[node.site];
        const std::uint32_t key = keyed ? order.thread().keys[order.post_index(n)] : 0;
        const bool has_parent = order.parent(n) != order.size();
        const std::uint32_t parent_provider =
            has_parent ? all.provider_of_site[order.node(order.parent(n)).site] : 0;
        all.count(t, n, node.outcome, p, order.duration_ns(n), key, parent_provider, has_parent);
    }
}

// A thread's hits counted per caller and callee in a table, when it has no keys (a hit then
// adds a call and nothing else) and the table is no bigger than the thread's nodes; added to
// the statistics after its walk. A hit then costs an increment, not an edge's look-up: three
// nodes in four are hits. The edges' order is the sort's in finish_calls, whatever adds them.
class HitCalls {
  public:
    HitCalls(const ThreadTrace& thread, std::size_t providers)
        : providers_(static_cast<std::uint32_t>(providers)) {
        if (thread.keys.empty() && (providers + 1) * providers <= thread.nodes.size()) {
            calls_.resize((providers + 1) * providers);
        }
    }
    bool counting() const { return !calls_.empty(); }
    // Where the hits asked by `caller` (a provider, or none for a root) are counted, by callee;
    // null when not counting.
    std::uint32_t* row(bool has_caller, std::uint32_t caller) {
        return counting() ? calls_.data() + (has_caller ? caller : providers_) * providers_
                          : nullptr;
    }
    void add_to(Gathered& all) const {
        for (std::uint32_t caller = 0; caller <= providers_; ++caller) {
            for (std::uint32_t callee = 0; callee < providers_; ++callee) {
                if (const std::uint32_t calls = calls_[caller * providers_ + callee]) {
                    all.add_hits(caller == providers_ ? kTopLevel : caller, callee, calls);
                }
            }
        }
    }

  private:
    std::uint32_t providers_;
    std::vector<std::uint32_t> calls_;  // by caller (providers_: none) and callee
};

// The same in one walk of the thread's nodes as stored, post-order backwards: each parent
// still comes before its children, the nodes are read in their order, and the ancestors' stack
// serves the times, the depth (so the pre-order index) and the caller at once. Only for a
// tree whose hits have no children, so that every ancestor is a timed node, as add_times
// wants its stack.
void gather_backwards(std::uint32_t t, const Preorder& order, const Work& work, Gathered& all) {
    struct Open {
        std::uint32_t first;  // where its subtree starts in post-order
        std::uint32_t provider;
        bool wait;
        std::int64_t ns;
        std::int64_t children_ns;
    };
    const ThreadTrace& thread = order.thread();
    const bool keyed = !thread.keys.empty();
    std::vector<std::uint32_t> open(all.times.size());
    std::vector<std::uint32_t> open_waits(all.times.size());
    AncestorStack<Open> stack;  // ancestors of the node walked
    std::vector<Times>& times = all.times;
    HitCalls hits{thread, times.size()};
    // The innermost ancestor's row of `hits`, in a local that changes only with the stack: three
    // nodes in four are hits, and each worked out its row before (7 % more time).
    std::uint32_t* hit_row = hits.row(false, 0);
    const auto innermost_changed = [&] {
        hit_row = hits.row(!stack.empty(), stack.empty() ? 0 : stack.innermost().provider);
    };
    const auto close = [&](const Open& done) {
        --open[done.provider];
        if (done.wait) {
            --open_waits[done.provider];
        } else {
            times[done.provider].self += done.ns - done.children_ns;
        }
    };
    thread.nodes.walk_backwards([&](std::uint32_t i, const NodeHead& head, const NodeBody* body) {
        if (stack.leave_before(i, close)) {
            innermost_changed();
        }
        const std::uint32_t p = all.provider_of_site[head.site];
        if (head.outcome == Outcome::hit && hit_row != nullptr) {
            ++hit_row[p];
            return;
        }
        const std::uint32_t key = keyed ? thread.keys[i] : 0;
        const bool has_parent = !stack.empty();
        const std::uint32_t caller = has_parent ? stack.innermost().provider : 0;
        const std::uint32_t depth = stack.size();
        if (head.outcome == Outcome::hit) {  // a leaf here; its duration, 0, changes no sum
            all.count(t, (body != nullptr ? body->first : i) + depth, Outcome::hit, p, 0, key,
                      caller, has_parent);
            return;
        }
        const Node node = NodeStore::node_of(i, head, body);
        const std::uint32_t n = node.first + depth;
        const std::int64_t ns = node.duration_ns();
        all.count(t, n, node.outcome, p, ns, key, caller, has_parent);
        if (has_parent) {
            stack.innermost().children_ns += ns;
        }
        Times& sums = times[p];
        const bool wait = node.outcome == Outcome::blocked;
        if (wait && open_waits[p]++ == 0) {
            sums.wait += ns;
        }
        if (open[p] == 0) {
            sums.total += ns;
            sums.work += ns - work.waits_inside(n);
        }
        ++open[p];
        const Open opened{node.first, p, wait, ns, 0};
        if (node.first < i) {
            stack.enter(opened);
            innermost_changed();
        } else {
            close(opened);  // a leaf: closed before the next node
        }
    });
    stack.leave_all(close);
    if (hits.counting()) {
        hits.add_to(all);
    }
}

std::vector<ProviderStats> finish(const Trace& trace, Gathered& all) {
    std::vector<ProviderStats>& stats = all.stats;
    const std::vector<Times>& times = all.times;
    for (std::uint32_t p = 0; p < stats.size(); ++p) {
        stats[p].provider = p;
        stats[p].total_ns = times[p].total;
        stats[p].self_ns = std::max<std::int64_t>(0, times[p].self);
        stats[p].wait_ns = times[p].wait;
        stats[p].work_ns = std::max<std::int64_t>(0, times[p].work);
        const ProviderTotals& totals = trace.providers[p];
        stats[p].cpu_ns = totals.is_activity && !totals.is_region ? totals.cpu_ns : -1;
        stats[p].memory = trace.memory_recorded;
        stats[p].memory_total = totals.memory_total;
        stats[p].memory_self = totals.memory_self;
        finish_durations(stats[p], all.durations[p]);
    }
    finish_keys(stats, all.asks);
    finish_calls(stats, all.edges);
    return std::move(stats);
}

}  // namespace

std::vector<ProviderStats> provider_stats(const Trace& trace, const std::vector<Preorder>& orders,
                                          const std::vector<Work>& works) {
    Gathered all{trace};
    for (std::uint32_t t = 0; t < orders.size(); ++t) {
        if (orders[t].hits_are_leaves()) {
            gather_backwards(t, orders[t], works[t], all);
        } else {
            gather_in_preorder(trace, t, orders[t], works[t], all);
        }
    }
    return finish(trace, all);
}

std::vector<ProviderStats> provider_stats_in_preorder(const Trace& trace,
                                                      const std::vector<Preorder>& orders) {
    Gathered all{trace};
    for (std::uint32_t t = 0; t < orders.size(); ++t) {
        const Work work{orders[t]};
        gather_in_preorder(trace, t, orders[t], work, all);
    }
    return finish(trace, all);
}

}  // namespace qprof::detail::html
