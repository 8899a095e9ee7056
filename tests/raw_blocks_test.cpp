// The raw stream's core blocks, each one definition for writer and reader: what encode writes,
// decode gives back, and decode refuses what a block may not hold, at the field's offset.
#include <catch2/catch.hpp>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "raw_cursor.hpp"
#include "raw_events.hpp"
#include "raw_format.hpp"
#include "raw_selection.hpp"
#include "raw_session.hpp"

namespace raw = qprof::detail::raw;
using qprof::ReportOptions;
using qprof::detail::ClockKind;
using qprof::detail::RegisteredSite;
using qprof::detail::SiteKind;

namespace {

// One block of `type` holding what `fill` writes, then read back by `read` from its payload.
template <typename Decoded>
Decoded round_trip(raw::BlockType type, const std::function<void(raw::BlockEncoder&)>& fill,
                   const std::function<Decoded(raw::PayloadReader&)>& read,
                   std::size_t* left = nullptr) {
    std::string bytes = raw::file_header(0);
    raw::BlockEncoder out{bytes, type, 0};
    fill(out);
    out.finish();
    raw::BlockCursor cursor{{reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}};
    cursor.read_file_header();
    const std::optional<raw::Block> block = cursor.next();
    REQUIRE(block);
    raw::PayloadReader in{*block};
    Decoded decoded = read(in);
    if (left != nullptr) {
        *left = in.remaining();
    }
    return decoded;
}

// The eight switches of SESSION's report_bits, in bit order.
const std::vector<std::function<bool&(ReportOptions&)>> kSwitches = {
    [](ReportOptions& r) -> bool& { return r.folded_merge_threads; },
    [](ReportOptions& r) -> bool& { return r.folded_hits; },
    [](ReportOptions& r) -> bool& { return r.folded_keys; },
    [](ReportOptions& r) -> bool& { return r.chrome_hits; },
    [](ReportOptions& r) -> bool& { return r.chrome_keys; },
    [](ReportOptions& r) -> bool& { return r.folded_args; },
    [](ReportOptions& r) -> bool& { return r.folded_classes; },
    [](ReportOptions& r) -> bool& { return r.folded_bytes; },
};

// The six kinds of SELECTION's left_out, in bit order.
const std::vector<std::function<bool&(qprof::EventSelection&)>> kKinds = {
    [](qprof::EventSelection& s) -> bool& { return s.hits; },
    [](qprof::EventSelection& s) -> bool& { return s.activities; },
    [](qprof::EventSelection& s) -> bool& { return s.waits; },
    [](qprof::EventSelection& s) -> bool& { return s.loads; },
    [](qprof::EventSelection& s) -> bool& { return s.sizes; },
    [](qprof::EventSelection& s) -> bool& { return s.counters; },
};

// SELECTION's first word, left_out, as write_selection writes it.
std::uint32_t left_out_word(const qprof::EventSelection& selection) {
    std::string bytes;
    raw::BlockEncoder out{bytes, raw::BlockType::selection, 0};
    qprof::detail::write_selection(out, selection);
    std::uint32_t word = 0;
    std::memcpy(&word, bytes.data() + raw::kBlockHeaderBytes, sizeof word);
    return word;
}

// `selection` through a SELECTION block and back.
qprof::EventSelection selection_round_trip(const qprof::EventSelection& selection) {
    return round_trip<qprof::EventSelection>(
        raw::BlockType::selection,
        [&](raw::BlockEncoder& out) { qprof::detail::write_selection(out, selection); },
        [](raw::PayloadReader& in) {
            qprof::EventSelection read;
            qprof::detail::read_selection(in, read);
            return read;
        });
}

}  // namespace

// The writer and the reader walk one table of the kinds by member pointer, the pattern GCC 12
// miscompiled under -fsanitize=address,undefined in report_bits: each kind alone, both ways,
// and all at once, so that a lost or repeated entry fails (build-asan runs it).
TEST_CASE("each kind left out is a bit of its own in SELECTION, read back alone") {
    for (std::size_t bit = 0; bit < kKinds.size(); ++bit) {
        INFO("bit " << bit);
        qprof::EventSelection selection;
        kKinds[bit](selection) = false;
        CHECK(left_out_word(selection) == 1u << bit);
        CHECK(selection_round_trip(selection) == selection);
    }
    qprof::EventSelection none;
    for (const auto& kind : kKinds) {
        kind(none) = false;
    }
    none.excluded = {"def_span"};
    none.key_providers = {"type_of", "typeck"};
    CHECK(left_out_word(none) == 0x3F);
    CHECK(selection_round_trip(none) == none);
}

TEST_CASE("each report switch is a bit of its own in SESSION, read back alone") {
    for (std::size_t bit = 0; bit < kSwitches.size(); ++bit) {
        INFO("bit " << bit);
        ReportOptions report;
        kSwitches[bit](report) = true;
        CHECK(raw::report_bits(report) == 1u << bit);
        ReportOptions back = raw::report_options(static_cast<std::uint8_t>(1u << bit), 6, 1.0);
        CHECK(back == report);
    }
    CHECK(raw::report_options(0, 9, std::numeric_limits<double>::infinity()).important_percent ==
          1.0);
}

TEST_CASE("SESSION, CLOCK and END decode to what was encoded") {
    raw::SessionBlock session{.start_tick = 7,
                              .start_steady_ns = 8,
                              .clock = ClockKind::steady,
                              .keys = true,
                              .report = {},
                              .process = {}};
    session.report.folded_bytes = true;
    session.report.important_extent = 12;
    session.report.important_percent = 2.5;
    session.process.start_unix_ns = -3;
    session.process.pid = 42;
    session.process.program = "toyc";
    const auto got = round_trip<raw::SessionBlock>(
        raw::BlockType::session, [&](raw::BlockEncoder& out) { session.encode(out); },
        raw::SessionBlock::decode);
    CHECK(got.start_tick == 7);
    CHECK(got.start_steady_ns == 8);
    CHECK(got.clock == ClockKind::steady);
    CHECK(got.keys);
    CHECK(got.report == session.report);
    CHECK(got.process.start_unix_ns == -3);
    CHECK(got.process.pid == 42);
    CHECK(got.process.program == "toyc");

    const auto sample = round_trip<raw::ClockBlock>(
        raw::BlockType::clock,
        [](raw::BlockEncoder& out) { raw::ClockBlock{.tick = 5, .steady_ns = 6}.encode(out); },
        raw::ClockBlock::decode);
    CHECK(sample.tick == 5);
    CHECK(sample.steady_ns == 6);

    raw::EndBlock end{.end_tick = 100,
                      .end_steady_ns = 200,
                      .ns_per_tick = 0.5,
                      .events = 9,
                      .process = {},
                      .blocks = 4};
    end.process.end_unix_ns = 300;
    end.process.peak_rss_bytes = 400;
    std::size_t left = 1;
    const auto back = round_trip<raw::EndBlock>(
        raw::BlockType::end, [&](raw::BlockEncoder& out) { end.encode(out); },
        raw::EndBlock::decode, &left);
    CHECK(back.end_tick == 100);
    CHECK(back.ns_per_tick == 0.5);
    CHECK(back.events == 9);
    CHECK(back.blocks == 4);
    CHECK(back.process.end_unix_ns == 300);
    CHECK(back.process.peak_rss_bytes == 400);
    CHECK(back.at.events - back.at.end_tick == 24);  // where the reader's checks point
    CHECK(left == 0);                                // 56 bytes, every one read
}

TEST_CASE("a list block split at its limit decodes, part by part, to the whole list") {
    raw::SitesBlock sites{.first_id = 1, .sites = {}};
    for (int i = 0; i < 5; ++i) {
        sites.sites.push_back(RegisteredSite{});
        sites.sites.back().line = static_cast<std::uint32_t>(10 + i);
        sites.sites.back().kind = i == 3 ? SiteKind::counter : SiteKind::query;
        sites.sites.back().provider = "provider " + std::to_string(i);
        sites.sites.back().file = "a.cpp";
    }
    std::vector<RegisteredSite> read;
    for (std::size_t next = 0, parts = 0; next < sites.sites.size(); ++parts) {
        REQUIRE(parts < sites.sites.size());
        const auto part = round_trip<raw::SitesBlock>(
            raw::BlockType::sites,
            [&](raw::BlockEncoder& out) { next = sites.encode(out, next, 40); },
            [&](raw::PayloadReader& in) {
                return raw::SitesBlock::decode(in, static_cast<std::uint32_t>(1 + read.size()));
            });
        CHECK(part.sites.size() == 2 - (part.first_id == 5 ? 1 : 0));  // 2 fit in 40 bytes
        read.insert(read.end(), part.sites.begin(), part.sites.end());
    }
    REQUIRE(read.size() == 5);
    CHECK(read[3].kind == SiteKind::counter);
    CHECK(read[4].provider == "provider 4");
    CHECK(read[4].line == 14);
}

TEST_CASE("decode refuses what a block may not hold, at the field, in the reader's words") {
    auto error_of = [](raw::BlockType type, const std::function<void(raw::BlockEncoder&)>& fill,
                       const std::function<void(raw::PayloadReader&)>& read) {
        try {
            round_trip<int>(type, fill, [&](raw::PayloadReader& in) {
                read(in);
                return 0;
            });
        } catch (const raw::FormatError& error) {
            return std::to_string(error.offset()) + ": " + error.what();
        }
        return std::string{"no error"};
    };
    // The payload starts at byte 48: 32 of file header, 16 of block header.
    CHECK(error_of(
              raw::BlockType::thread,
              [](raw::BlockEncoder& out) {
                  raw::ThreadBlock{.thread = 1u << 16, .name = "x"}.encode(out);
              },
              [](raw::PayloadReader& in) { raw::ThreadBlock::decode(in); }) ==
          "48: thread index 65536 (expected less than 65536)");
    CHECK(error_of(
              raw::BlockType::key_types,
              [](raw::BlockEncoder& out) {
                  raw::KeyTypesBlock{.first_id = 1,
                                     .types = {{.payload_words = 17, .interned = false}}}
                      .encode(out);
              },
              [](raw::PayloadReader& in) { raw::KeyTypesBlock::decode(in, 1); }) ==
          "56: key type of 17 payload words (expected 1 to 16)");
    CHECK(error_of(
              raw::BlockType::key_types,
              [](raw::BlockEncoder& out) {
                  raw::KeyTypesBlock{.first_id = 1,
                                     .types = {{.payload_words = 4, .counted = true}}}
                      .encode(out);
              },
              [](raw::PayloadReader& in) { raw::KeyTypesBlock::decode(in, 1); }) ==
          "56: counted key type of 4 payload words (expected 0: its records count their words)");
    CHECK(error_of(
              raw::BlockType::key_texts,
              [](raw::BlockEncoder& out) {
                  raw::KeyTextsBlock{
                      .bindings = {{.bytes = {1, {}}, .payload_words = 1, .text = "x"}}}
                      .encode(out, 0, 1000);
              },
              [](raw::PayloadReader& in) {
                  qprof::detail::RecordedKeyTexts keys;
                  keys.add_type(0, true);
                  raw::KeyTextsBlock::decode(in, keys);
              }) == "52: key text for counted key type 1 (its records hold their text)");
    CHECK(error_of(
              raw::BlockType::sites,
              [](raw::BlockEncoder& out) {
                  raw::SitesBlock{.first_id = 2, .sites = {}}.encode(out, 0, 64);
              },
              [](raw::PayloadReader& in) { raw::SitesBlock::decode(in, 1); }) ==
          "48: sites start at id 2 (expected 1, the next undeclared id)");
    CHECK(error_of(
              raw::BlockType::end,
              [](raw::BlockEncoder& out) {
                  raw::EndBlock end;
                  end.ns_per_tick = 1e4;
                  end.encode(out);
              },
              [](raw::PayloadReader& in) { raw::EndBlock::decode(in); }) ==
          "64: nanoseconds per tick is 10000.000000 (expected a number between 0.001 and 1000)");
}
