// The trace model that reporters read: per-thread trees of query nodes and per-provider
// totals, with times in nanoseconds from the start of the session.
//
//   void MyReporter::write(const qprof::Trace& trace, std::ostream& out) {
//       for (const qprof::ProviderTotals& p : trace.providers)
//           out << p.provider << ' ' << p.count << ' ' << p.total_ns << '\n';
//       for (const qprof::ThreadTrace& thread : trace.threads)
//           for (std::uint32_t root : thread.roots())
//               visit(thread, root);          // thread.children(root), recursively
//   }
//
// A thread's nodes are a NodeStore (qprof/node_store.hpp, included here), which hands each
// Node out by value: a reporter written against the std::vector<Node> it replaced still reads
// nodes the same way, but can no longer take a node's address or change a node in place.
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <compare>
#include <cstddef>
#include <cstdint>
#include <qprof/detail/event_selection.hpp>
#include <qprof/node_store.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qprof {

// A call site of a qprof macro.
struct SiteInfo {
    std::string provider;  // provider or activity name
    std::string file;
    std::uint32_t line = 0;
    std::uint32_t provider_index = 0;  // into Trace::providers
};

// ThreadTrace::nodes' type before it became a NodeStore, for reporters that named it.
using NodeVector = NodeStore;

// Memory allocated on a scope's own thread while it was open (-Z profile-queries-memory and the
// allocation hook, qprof/alloc_hook.hpp), in the allocator's usable bytes.
struct MemoryUse {
    std::uint64_t allocated_bytes = 0;
    std::uint64_t allocations = 0;
    // Allocated minus freed while the scope was open: what it left behind (a memo table's new
    // entries). Negative when the scope freed more than it allocated.
    std::int64_t retained_bytes = 0;
};

// The thread CPU time of one activity (a node), recorded at its entry and exit.
struct ActivityCpu {
    std::uint32_t node = 0;  // index into ThreadTrace::nodes
    std::int64_t cpu_ns = 0;
};

// One value of a counter (qprof::counter), when it was recorded.
struct CounterSample {
    std::int64_t time_ns = 0;  // from the session start, as nodes' times
    std::int64_t value = 0;
};

// A counter's values on one thread, in the order recorded (so by time).
struct CounterSeries {
    std::uint32_t counter = 0;  // into Trace::counters
    std::vector<CounterSample> samples;
};

struct ThreadTrace {
    std::uint32_t index = 0;
    std::uint32_t run = 0;  // into Trace::runs: the process that ran it
    std::string name;
    // Post-order: children before their parent, in call order. A NodeStore, no longer a
    // std::vector<Node>: thread.nodes[i] and iteration give a Node by value, so a reporter
    // reads nodes as before but cannot keep a pointer to one or change one in place (see
    // qprof/node_store.hpp). A walk over every node is cheapest in order, by iterator.
    NodeStore nodes;
    // With -Z profile-queries-and-keys, one entry per node: 0 for none, otherwise the index
    // + 1 of its text in Trace::key_texts. Empty when keys were not recorded.
    std::vector<std::uint32_t> keys;
    // With -Z profile-queries-memory, one entry per node, inclusive of its children: zero for
    // hits and unfinished scopes. Empty when memory was not recorded.
    std::vector<MemoryUse> memory;
    // The CPU time of each activity that recorded one, by ascending node: a pass that waits
    // shows wall time well above its CPU time. Regions and unfinished activities have none.
    std::vector<ActivityCpu> activity_cpu;
    // Each counter the thread recorded, in order of the counter's first record on it. Empty
    // when the collector kept totals only (no report drew the trace).
    std::vector<CounterSeries> counters;

    // The thread CPU time of a node, or -1 when it recorded none.
    std::int64_t cpu_ns(std::uint32_t node) const;
    // Top-level nodes in call order.
    std::vector<std::uint32_t> roots() const;
    // Immediate children of a node in call order.
    std::vector<std::uint32_t> children(std::uint32_t node) const;
    // The parent of every node (the node count for roots), computed in one pass.
    std::vector<std::uint32_t> parents() const;
};

// What names a provider: its name, and whether it is an activity (or a region). A query provider
// and an activity may have the same name and stay two providers.
struct ProviderKey {
    std::string name;
    bool is_activity = false;
    auto operator<=>(const ProviderKey&) const = default;
};

struct ProviderTotals {
    std::string provider;
    bool is_activity = false;  // an activity or a region
    bool is_region = false;    // entered with qprof::enter_region: ends when the next begins
    ProviderKey key() const { return {provider, is_activity}; }
    std::uint64_t count = 0;  // every node, hits included
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;
    std::int64_t total_ns = 0;  // inclusive; a provider re-entered inside itself counts once
    std::int64_t self_ns = 0;   // total minus the time of timed children
    // Time spent waiting on other threads (its waits, a wait inside a wait of its own counted
    // once, as total_ns counts a provider inside itself).
    std::int64_t blocked_ns = 0;
    std::int64_t blocked_self_ns = 0;  // the self time of its waits: self_ns that was waiting
    std::int64_t load_ns = 0;          // time spent loading from a persistent cache
    // Self time that was work: self_ns less its waits' (blocked_self_ns). What every report
    // ranks by; the HTML report's statistics sum the same from the nodes.
    std::int64_t work_self_ns() const;
    // With -Z profile-queries-memory: inclusive (a provider re-entered inside itself counts
    // once) and self (minus what its timed children used).
    MemoryUse memory_total{};
    MemoryUse memory_self{};
    std::int64_t cpu_ns = 0;  // activities: thread CPU time, summed over their runs
    // Its colour class (PROFILE_QUERY_CLASS, -Z profile-queries-colour): 0 for none, else 1 +
    // its index in Trace::colour_classes. A provider has one: its first classed site's.
    std::uint32_t colour_class = 0;
};

// The runs of one activity with one argument (PROFILE_ACTIVITY_ARG), summed over the run. A run
// inside a run of the same activity and argument counts once in the times, as a provider
// re-entered inside itself does; every run counts in `runs`.
struct ArgumentTotals {
    std::uint32_t activity = 0;  // into Trace::providers
    std::string argument;
    std::uint64_t runs = 0;
    std::int64_t total_ns = 0;
    std::int64_t cpu_ns = 0;  // thread CPU time, of the runs that recorded it
};

// A size (qprof::record_size) summed over the run: every thread's, by name.
struct SizeTotals {
    std::string name;
    std::uint64_t bytes = 0;
    std::uint64_t records = 0;  // how many times it was recorded
};

// A counter (qprof::counter) over the run: every thread's values, by name.
struct CounterTotals {
    std::string name;
    std::uint64_t samples = 0;
    std::int64_t min = 0;
    std::int64_t max = 0;
};

// One run of the program: which process it was and when it ran. Fields a stream does not carry
// (written before qprof 1.1, or cut before its end) are empty or 0.
struct RunInfo {
    std::string program;            // argv[0]'s base name
    std::vector<std::string> argv;  // the full command line, -Z flags included
    std::uint32_t pid = 0;
    std::uint32_t parent_pid = 0;
    std::string working_directory;  // when the session started
    std::string host;
    std::int64_t start_unix_ns = 0;    // ns since 1970-01-01 UTC
    std::int64_t end_unix_ns = 0;      // 0 when the run was cut before its end
    std::uint64_t peak_rss_bytes = 0;  // getrusage's ru_maxrss at the end; 0 when unknown
    // On the trace's timeline: when it started after the earliest run (0 but in a merge), how
    // long it ran and how many events it recorded.
    std::int64_t start_offset_ns = 0;
    std::int64_t wall_ns = 0;
    std::uint64_t events = 0;
};

struct Trace {
    std::vector<SiteInfo> sites;  // the call sites this trace used
    std::vector<ThreadTrace> threads;
    std::vector<ProviderTotals> providers;  // in order of first registration
    // Per activity and argument: by activity (in providers' order), then by total time,
    // longest first, then by argument. Kept with or without the nodes.
    std::vector<ArgumentTotals> arguments;
    std::vector<SizeTotals> sizes;        // in order of first registration
    std::vector<CounterTotals> counters;  // the same; ThreadTrace::counters point here
    std::int64_t wall_ns = 0;             // session start to session end
    std::uint64_t events = 0;             // every node recorded, kept in threads or not
    std::string clock;                    // "tsc", "steady" or "manual"
    // The profiled program (argv[0]'s base name) and its process id. A merge of runs keeps the
    // program when all runs share it, and a pid of 0 (each run's threads name theirs).
    std::string program;
    std::uint32_t pid = 0;
    // One per run, in order of start time. A merge places each run's nodes at its start offset,
    // so its wall time spans from the earliest start to the latest end.
    std::vector<RunInfo> runs;
    double ns_per_tick = 1.0;

    // The providers' colour classes, each once, sorted: a class's place here is its colour in
    // the reports that draw (the palette's --class-N, N its index modulo the palette's size).
    std::vector<std::string> colour_classes;
    std::vector<std::string> key_texts;  // each distinct key text once
    bool keys_recorded = false;          // -Z profile-queries-and-keys
    bool memory_recorded = false;        // -Z profile-queries-memory: some scope carries memory
    // What the run recorded (-Z profile-queries-events); every report states what it left out
    // (selection.left_out(keys_recorded)). A merge holds what any run left out.
    EventSelection selection;

    std::uint64_t node_count() const;
    // The key of a node as text; empty when it has none or keys were not recorded.
    std::string_view key_of(const ThreadTrace& thread, std::uint32_t node) const;
    // The sizes as every table lists them: most bytes first, ties by name.
    std::vector<const SizeTotals*> sizes_by_bytes() const;
    // The name a node is shown by: its provider's, and for an activity with an argument
    // (PROFILE_ACTIVITY_ARG), the argument after it: "codegen unit(math)".
    std::string name_of(const ThreadTrace& thread, std::uint32_t node) const;
    // "codegen unit(math)": the name reports give an activity's runs with one argument.
    std::string name_of(const ArgumentTotals& arguments) const;
    // A provider's colour class; empty when it has none.
    std::string_view colour_class_of(const ProviderTotals& provider) const {
        return provider.colour_class == 0 ? std::string_view{}
                                          : colour_classes[provider.colour_class - 1];
    }
    const ProviderTotals& provider_of(const Node& node) const {
        return providers[sites[node.site].provider_index];
    }
};

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
