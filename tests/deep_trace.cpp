#include "deep_trace.hpp"

#include <qprof/detail/recorder.hpp>
#include <vector>

#include "raw_format.hpp"

namespace qprof::test {

namespace {

constexpr std::int64_t kStartTick = 1000;

// In post-order, the deepest first: the node at depth d is number depth - 1 - d.
template <typename Visit>
void for_each_node(std::uint32_t depth, Visit visit) {
    for (std::uint32_t i = 0; i < depth; ++i) {
        const std::uint32_t d = depth - 1 - i;
        visit(d, std::int64_t{d}, 2 * std::int64_t{depth} - d);
    }
}

}  // namespace

Trace deep_chain_trace(std::uint32_t depth) {
    Trace trace;
    for (const char* name : {"f", "g"}) {
        trace.providers.emplace_back().provider = name;
        SiteInfo& site = trace.sites.emplace_back();
        site.provider = name;
        site.provider_index = static_cast<std::uint32_t>(trace.sites.size() - 1);
    }
    ThreadTrace& thread = trace.threads.emplace_back();
    thread.name = "main";
    for_each_node(depth, [&](std::uint32_t d, std::int64_t start, std::int64_t end) {
        Node node;
        node.site = d % 2;
        node.depth = d;
        node.extent = d + 1 < depth ? 1 : 0;
        node.first = 0;
        node.start = start;
        node.end = end;
        thread.nodes.push_back(node);
        trace.providers[d % 2].count += 1;
        trace.providers[d % 2].misses += 1;
    });
    trace.events = depth;
    trace.wall_ns = 2 * std::int64_t{depth};
    trace.clock = "manual";
    return trace;
}

std::string deep_chain_stream(std::uint32_t depth) {
    namespace raw = detail::raw;
    std::string out = raw::file_header(0);
    std::uint32_t seq = 0;
    raw::BlockEncoder session{out, raw::BlockType::session, seq++};
    for (std::uint64_t field : {std::uint64_t{kStartTick}, std::uint64_t{0}, std::uint64_t{0}}) {
        session.u64(field);  // start tick, steady and Unix start times
    }
    for (std::uint8_t byte : {2, 0, 0, 0}) {  // manual clock, no keys, no report options
        session.u8(byte);
    }
    session.u32(6);  // important extent and percent
    session.f64(1.0);
    session.u32(1);  // pid
    session.u32(0);
    session.str("deep");
    session.finish();
    raw::BlockEncoder sites{out, raw::BlockType::sites, seq++};
    sites.u32(1);  // first id
    sites.u32(2);
    for (const char* name : {"f", "g"}) {
        sites.u32(1);  // line
        sites.u8(0);   // a query
        sites.str(name);
        sites.str("deep.cpp");
    }
    sites.finish();
    std::vector<std::uint64_t> words;
    for_each_node(depth, [&](std::uint32_t d, std::int64_t start, std::int64_t end) {
        words.push_back(std::uint64_t{static_cast<std::uint8_t>(detail::RecordKind::miss)} << 56 |
                        std::uint64_t{d} << 32 | (1 + d % 2));
        words.push_back(static_cast<std::uint64_t>(kStartTick + start));
        words.push_back(static_cast<std::uint64_t>(kStartTick + end));
    });
    raw::BlockEncoder records{out, raw::BlockType::records, seq++};
    records.u32(0);  // thread
    records.u32(static_cast<std::uint32_t>(words.size()));
    records.words(words.data(), words.size());
    records.finish();
    raw::BlockEncoder end{out, raw::BlockType::end, seq++};
    end.u64(static_cast<std::uint64_t>(kStartTick + 2 * std::int64_t{depth}));
    end.u64(0);    // steady end
    end.f64(1.0);  // ns per tick
    end.u64(depth);
    end.finish();
    return out;
}

}  // namespace qprof::test
