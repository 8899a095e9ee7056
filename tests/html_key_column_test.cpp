// The html page's key column (html_payload_layout.hpp, KeyCode): every node's key read back,
// the codes a dependency scan gets, and a page too heavy with its hits' keys, which leaves them
// out, says so and keeps its statistics whole; small columns stored, larger ones compressed.
// What the viewer makes of it: the browser tests.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdint>
#include <qprof/qprof.hpp>
#include <string>
#include <thread>
#include <vector>

#include "dependency_scan.hpp"
#include "html_key_codes.hpp"
#include "html_page_knobs.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"
#include "html_payload_stream.hpp"
#include "html_workload.hpp"
#include "preorder.hpp"
#include "test_support.hpp"

namespace layout = qprof::detail::html::layout;
using qprof::detail::Preorder;
using qprof::detail::html::KeyCodes;
using qprof::test::ColumnsBudget;
using qprof::test::StoredColumnsLimit;
using qprof::test::html_workload::html_of;

namespace {

constexpr std::size_t kTag = 0;
constexpr std::size_t kSize = 1;
constexpr std::size_t kKey = 4;  // tag, size, dur, gap, key

constexpr int kScanNodes = 300;
void scan() { qprof::test::dependency_scan(kScanNodes); }

qprof::SessionOptions keyed() {
    qprof::SessionOptions options = qprof::test::recording_options();
    options.record_keys = true;
    return options;
}

// Every thread's keys as its key column gives them back, in pre-order, through one KeyCodes
// (as the viewer walks them), each thread's codes, and its keys as the trace has them.
struct Keys {
    std::vector<std::vector<std::uint32_t>> read;
    std::vector<std::vector<std::uint64_t>> codes;
    std::vector<std::vector<std::uint32_t>> recorded;
    std::vector<std::vector<bool>> hit;
};

Keys keys_of(const qprof::Trace& trace, const std::string& page) {
    const qprof::test::PayloadStream stream = qprof::test::payload_stream(page);
    REQUIRE(stream.keys == trace.key_texts);
    Keys keys;
    KeyCodes codes{trace.key_texts.size(), true};
    std::size_t at = 0;  // each thread's columns, one after the other: tag, size, dur, gap, key
    for (const qprof::ThreadTrace& thread : trace.threads) {
        const Preorder order{thread};
        const std::size_t nodes = order.size();
        REQUIRE(at + 5 * nodes <= stream.values.size());
        const auto column = [&](std::size_t c, std::size_t n) {
            return stream.values[at + c * nodes + n];
        };
        codes.start_thread();
        keys.read.emplace_back();
        keys.codes.emplace_back();
        keys.recorded.emplace_back();
        keys.hit.emplace_back();
        for (std::uint32_t n = 0; n < nodes; ++n) {
            keys.codes.back().push_back(column(kKey, n));
            keys.read.back().push_back(
                codes.decode(column(kKey, n), static_cast<std::uint32_t>(column(kSize, n))));
            keys.recorded.back().push_back(thread.keys[order.post_index(n)]);
            keys.hit.back().push_back((column(kTag, n) & layout::kOutcomeMask) ==
                                      static_cast<std::uint64_t>(qprof::Outcome::hit));
        }
        at += 5 * nodes;
    }
    CHECK(at == stream.values.size());
    return keys;
}

std::string payload_json(const std::string& page) {
    return qprof::test::element_text(page, "<script type=\"application/json\" id=\"qprof-trace\"");
}

std::string columns_text(const std::string& page) {
    return qprof::test::element_text(
        page, "<script type=\"application/octet-stream\" id=\"qprof-columns\"");
}

// The statistics' JSON: computed from the whole trace, whatever the columns hold.
std::string stats_of(const std::string& page) {
    const std::size_t from = page.find("\"stats\":");
    REQUIRE(from != std::string::npos);
    return page.substr(from, page.find("\"compression\":", from) - from);
}

}  // namespace

TEST_CASE("the key column gives back every node's key, on every thread") {
    const auto program = [] {
        qprof::test::html_workload::compile();  // passes without keys, queries asked twice
        std::thread{scan}.join();               // the keys of the first thread, asked again
        scan();
    };
    const qprof::Trace trace = qprof::test::trace_of(program, keyed());
    REQUIRE(trace.threads.size() == 2);
    const Keys keys = keys_of(trace, html_of(trace));
    CHECK(keys.read == keys.recorded);
}

TEST_CASE("a scan's hits cost a code each when they follow a key, their keys in full else") {
    const qprof::Trace trace = qprof::test::trace_of(scan, keyed());
    const Keys keys = keys_of(trace, html_of(trace));
    REQUIRE(keys.read == keys.recorded);
    const auto& codes = keys.codes.at(0);
    const Preorder order{trace.threads.at(0)};
    std::size_t following = 0;
    std::size_t in_full = 0;
    for (std::uint32_t n = 0; n < order.size(); ++n) {
        INFO(n);
        const bool dirty =
            trace.providers[trace.sites[order.node(n).site].provider_index].provider == "dirty";
        if (!keys.hit[0][n]) {  // a run: a key the scan never asked before
            CHECK(codes[n] == layout::kKeyNewest);
        } else if (dirty) {  // an earlier node, chosen at random: seldom told by a neighbour
            CHECK((codes[n] >= layout::kKeyExplicit || codes[n] == layout::kKeyFollowing));
            in_full += codes[n] >= layout::kKeyExplicit ? 1 : 0;
        } else {  // the file time of the node just asked whether it is dirty, asked again
            CHECK(codes[n] == layout::kKeyFollowing);
            following += 1;
        }
    }
    CHECK(in_full > 3 * (kScanNodes - 1) * 9 / 10);
    CHECK(following > kScanNodes);
}

TEST_CASE("a page too heavy with its hits' keys leaves them out, says so, keeps its statistics") {
    const qprof::Trace trace = qprof::test::trace_of(scan, keyed());
    const StoredColumnsLimit compressed{0};  // the budget is of compressed columns
    std::uint64_t keyed_hits = 0;
    for (std::size_t i = 0; i < trace.threads[0].nodes.size(); ++i) {
        keyed_hits += trace.threads[0].nodes[i].outcome == qprof::Outcome::hit &&
                      trace.threads[0].keys[i] != 0;
    }
    REQUIRE(keyed_hits > 0);
    const std::string whole = html_of(trace);
    const std::size_t heavy = columns_text(whole).size();
    CHECK(payload_json(whole).find(layout::kHitsLeftOut) == std::string::npos);
    {
        const ColumnsBudget just_enough{heavy};  // not past it: every key stays
        CHECK(html_of(trace) == whole);
    }
    std::vector<std::string> pages;
    {
        const ColumnsBudget budget{heavy - 1};
        pages = qprof::test::made_with_each_thread_count([&] { return html_of(trace); });
    }
    const std::string& light = pages[0];
    for (const std::string& page : pages) {  // the same bytes however the page is made
        CHECK(page == light);
    }
    CHECK(qprof::test::payload_number(light, std::string{layout::kHitsLeftOut}) == keyed_hits);
    CHECK(columns_text(light).size() < heavy);
    CHECK(stats_of(light) == stats_of(whole));  // most-asked keys count every hit still
    const Keys keys = keys_of(trace, light);
    for (std::size_t n = 0; n < keys.read[0].size(); ++n) {
        INFO(n);
        if (keys.hit[0][n] && keys.recorded[0][n] != 0) {
            CHECK(keys.codes[0][n] == layout::kKeyLeftOut);
            CHECK(keys.read[0][n] == 0);
        } else {
            CHECK(keys.read[0][n] == keys.recorded[0][n]);  // every run keeps its key
        }
    }
}

TEST_CASE("a key's text after one like it takes only the bytes that differ") {
    const qprof::Trace trace = qprof::test::trace_of(scan, keyed());
    const std::string page = html_of(trace);
    REQUIRE(qprof::test::payload_stream(page).keys == trace.key_texts);
    std::uint64_t whole = 0;
    for (const std::string& text : trace.key_texts) {
        whole += text.size();
    }
    // a file's key takes "src/file" from an earlier file's, "12" the "1" of "11" (whole: 3,858
    // bytes, the rest 1,561)
    const std::uint64_t rest = qprof::test::payload_number(page, "text");
    CHECK(rest < whole / 2);
    CHECK(qprof::test::payload_number(page, "lengths") < 4 * trace.key_texts.size());
}

namespace {

// The bytes of the page's columns as they are in it: its base64 text decoded.
std::size_t packed_bytes(const std::string& page) {
    const std::string text = columns_text(page);
    const auto padding = static_cast<std::size_t>(
        std::count(text.end() - static_cast<std::ptrdiff_t>(std::min<std::size_t>(2, text.size())),
                   text.end(), '='));
    return text.size() / 4 * 3 - padding;
}

std::string unpacked(const std::string& page) {
    return qprof::test::decompress_with_python(columns_text(page), "base64-zlib");
}

}  // namespace

TEST_CASE("small columns are stored as they are, larger ones compressed, to the same bytes") {
    const qprof::Trace trace = qprof::test::trace_of(scan, keyed());
    // The least the columns can take: a byte a value in each of the five, and the keys' texts.
    std::uint64_t least = 5 * trace.threads.at(0).nodes.size();
    for (const std::string& text : trace.key_texts) {
        least += text.size();
    }
    std::string stored;
    std::string compressed;
    {
        const StoredColumnsLimit limit{least};
        stored = html_of(trace);
    }
    {
        const StoredColumnsLimit limit{least - 1};
        compressed = html_of(trace);
    }
    const std::string bytes = unpacked(stored);
    REQUIRE(bytes.size() > 10'000);
    CHECK(unpacked(compressed) == bytes);
    // Stored: every byte, with zlib's head and check and each block's head (5 bytes a block).
    CHECK(packed_bytes(stored) > bytes.size());
    CHECK(packed_bytes(stored) < bytes.size() + 6 + 5 * (bytes.size() / 65'535 + 3));
    CHECK(packed_bytes(compressed) < bytes.size() / 2);
    CHECK(payload_json(compressed) == payload_json(stored));
    REQUIRE(least < qprof::detail::html::kStoredColumnsBytes);  // by default, a scan is small
    CHECK(html_of(trace) == stored);
}

TEST_CASE("stored columns past the page's budget are compressed before a hit's key is left out") {
    const qprof::Trace trace = qprof::test::trace_of(scan, keyed());
    const std::string stored = html_of(trace);
    std::string compressed;
    {
        const StoredColumnsLimit limit{0};
        compressed = html_of(trace);
    }
    REQUIRE(columns_text(compressed).size() < columns_text(stored).size() / 2);
    const ColumnsBudget budget{columns_text(stored).size() - 1};
    for (const std::string& page :  // the same bytes however the page is made
         qprof::test::made_with_each_thread_count([&] { return html_of(trace); })) {
        CHECK(page == compressed);  // every key stays
    }
}
