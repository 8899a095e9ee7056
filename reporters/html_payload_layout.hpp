// The layout of profile_queries.html's payload, described once. html_columns.cpp and
// html_payload.cpp write by it; the viewer reads by the same constants (qp.layout), which
// html_payload_layout_js.cpp prints at build time as the viewer's first script,
// payload_layout.js, so that no mask or column order is written twice. The contract in words:
// docs/html-report.md.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace qprof::detail::html::layout {

inline constexpr std::string_view kFormat = "qprof-html-trace";
inline constexpr int kVersion = 4;

// A node's tag: provider << kProviderShift | important | unfinished | outcome.
inline constexpr std::uint32_t kOutcomeMask = 0b111;  // Outcome: 0 miss, 1 hit, 2 blocked ...
// The outcome codes' names, indexed by qprof::Outcome, as outcome_name writes them (the test
// html_reporter checks that they agree): the viewer's class names and its words.
inline constexpr std::array<std::string_view, 5> kOutcomeNames = {"miss", "hit", "blocked", "load",
                                                                  "activity"};
inline constexpr std::uint32_t kUnfinishedFlag = 1u << 3;
inline constexpr std::uint32_t kImportantFlag = 1u << 4;
inline constexpr int kProviderShift = 5;

// How a column's values become bytes: each value, each signed value zigzagged (0, -1, 1, -2
// ... as 0, 1, 2, 3 ...), or a key's code (KeyCode, below), as an unsigned LEB128 varint (7
// bits a byte, low bits first, the top bit set on every byte but the last).
enum class Encoding { varint, zigzag_varint, key_codes };

enum class Field { tag, size, dur, gap, key, allocated, allocations, retained };

// When a column is in the payload: always, with keys (or an activity's argument) on the
// thread, or when the run recorded memory (-Z profile-queries-memory).
enum class Presence { always, keys, memory };

struct Column {
    Field field;
    std::string_view name;  // the array in qp.threads[t]
    Encoding encoding;
    Presence presence;
    std::string_view array;  // the typed array the viewer holds it in
};

// Per thread, in this order, one value per node in pre-order. Every thread's columns, one
// after the other, go together into one zlib stream (kCompression, the name
// DecompressionStream takes; its Adler-32 reveals a corrupt page), compressed or, when they are
// small, stored (html_parts.hpp: columns_method), then written as base64.
inline constexpr std::array<Column, 8> kColumns = {{
    {Field::tag, "tag", Encoding::varint, Presence::always, "Int32Array"},
    // Nodes in the subtree, the node included.
    {Field::size, "size", Encoding::varint, Presence::always, "Int32Array"},
    // Inclusive duration in nanoseconds, 0 for hits: past 2^31 after about 2 s.
    {Field::dur, "dur", Encoding::varint, Presence::always, "Float64Array"},
    // Where the node starts, for the timeline: nanoseconds from its cursor -- its parent's
    // start (the session start for the first root) or, after a timed sibling, that sibling's
    // end -- to its start; 0 for a hit, which sits at the cursor without moving it. An idle
    // thread's gap may pass 2^31.
    {Field::gap, "gap", Encoding::varint, Presence::always, "Float64Array"},
    // 0 when none, else 1 + index into `keys`, told from the keys around it (KeyCode); -1 in
    // the viewer for a hit whose key the page left out.
    {Field::key, "key", Encoding::key_codes, Presence::keys, "Int32Array"},
    // What was allocated on the node's thread while it was open, its children's included
    // (qprof::MemoryUse): bytes, allocations, and bytes allocated less bytes freed, which is
    // negative when it freed older memory. 0 for hits and unfinished scopes.
    {Field::allocated, "alloc", Encoding::varint, Presence::memory, "Float64Array"},
    {Field::allocations, "allocs", Encoding::varint, Presence::memory, "Float64Array"},
    {Field::retained, "retained", Encoding::zigzag_varint, Presence::memory, "Float64Array"},
}};
inline constexpr std::string_view kCompression = "deflate";

// A node's key as the key column codes it, from the keys around it: a hit's key is mostly its
// parent's, its previous sibling's, or the one that followed that sibling's key before (a
// build tool asks a node's dirty bit, then its file's time; a compiler asks type_of(f), then
// generics_of(f)), and a run's key mostly a new one. A difference of key indexes, which hits
// make random, cost 2.6 bytes a hit compressed; these codes, the first that fits, 1 byte or
// less but for the keys that fit none.
//
// Walking each thread in pre-order, with what every earlier node (of every earlier thread too)
// taught: `parent` is the parent's key (0 for a root or none), `previous` the previous
// sibling's (for a root the previous root's; 0 for a first child or none), `newest` the
// highest key so far, `following[k]` the key of the node after the last sibling keyed k.
// Each node with a key then sets following[previous] (when previous is not 0) and newest.
// A node with no key, or whose key is left out, counts as key 0 for its siblings and children.
enum KeyCode : std::uint32_t {
    kKeyNone = 0,        // no key
    kKeyLeftOut = 1,     // a hit whose key the page leaves out (kHitKeysLeftOut)
    kKeyNewest = 2,      // newest + 1: keys are numbered as the program first used them
    kKeyOfParent = 3,    // parent
    kKeyOfPrevious = 4,  // previous
    kKeyFollowing = 5,   // following[previous]
    kKeyExplicit = 6,    // kKeyExplicit + zigzag(key - (newest + 1)): every other key
};

// A page leaves out hits' keys (and only them: every run keeps its key) when its columns,
// compressed, as base64, would take more than this with them: the page's budget is 40 MB at ten
// million events, and a hit's key that fits no code takes about 4 bytes of it. The JSON then
// says how many hits' keys are left out, "keys":{...,"hits_left_out":N}, and the page says so
// wherever a hit's key would show (kHitKeyLeftOut). The statistics, computed from the whole
// trace, still count every hit of every key, as keys.txt does.
inline constexpr std::uint64_t kColumnsBudgetBytes = 38'000'000;
inline constexpr std::string_view kHitsLeftOut = "hits_left_out";
inline constexpr std::string_view kHitKeyLeftOut = "not in this page";

// The keys' texts (Trace::key_texts, each as valid UTF-8) follow every thread's columns in the
// same stream: first each key's head, then the rest of each text, one after the other. A head
// is a varint `back`, then when it is not 0 a varint `shared`, then a varint `rest`: the text
// is the first `shared` bytes of the text of the key `back` before it (one of the kKeysBack
// before it; back 0: none), then its next `rest` bytes of the texts. Keys mostly follow keys
// like them ("src/module3/file801.cc" after "src/module3/file800.cc", two keys back when two
// kinds of key alternate): shallow_queries' 2.5 million keys at 10 M events took 15.9 MB of
// its page whole, 11.2 MB so. The JSON gives their count and the bytes of each part,
// "keys":{"count":N, "lengths":B,"text":B}, for the viewer to check what it decompressed.
// Compressed with the columns, not written as JSON: a build scan's 700,000 keys made 17.7 MB of
// JSON, 4.0 MB so.
inline constexpr std::size_t kKeysBack = 4;
inline constexpr std::string_view kKeyLengths = "lengths";
inline constexpr std::string_view kKeyText = "text";

// Colour classes take the palette's --class-0 ... --class-5 (reporters/viewer_common/theme.css)
// by their place in Trace::colour_classes, round again after the sixth: a provider's
// colour_class (1 + that place) shows as the CSS class "colour-N" of its slot N. The flame graph
// uses the same slots.
inline constexpr std::uint32_t kColourSlots = 6;
constexpr std::uint32_t colour_slot(std::uint32_t colour_class) {
    return (colour_class - 1) % kColourSlots;
}

// What the page shows for hits and hit rates when the run did not record hits
// (-Z profile-queries-events=-hits, payload "hits_recorded": false): never "0.0 %".
inline constexpr std::string_view kHitsNotRecorded = "hits not recorded";

// A node's label names its key (-Z profile-queries-and-keys) after its provider, in at most this
// many characters (code points of the key as valid UTF-8). A longer key keeps its first
// kLabelKeyHeadChars and its last ones around an ellipsis: keys that share a long start, as
// the paths of one tree do, differ at their end (the file), and a label cut at the end showed
// them all alike: "mtime(/home/…odule3/file200.cc)", "type_of(fn_12)".
inline constexpr std::size_t kLabelKeyChars = 24;
inline constexpr std::size_t kLabelKeyHeadChars = 6;

// The thread selector lists at most this many threads (the first and the busiest, in thread
// order, html_reporter.cpp); the viewer adds one left out when it shows it.
inline constexpr std::size_t kThreadOptions = 200;

// How a thread's tree is drawn, by the page's C++-written initial view (html_pieces.cpp,
// html_tree.cpp) and by the viewer (render.js) alike: a run of kSmallRun nodes or fewer is
// drawn node by node, not folded; a sibling list ends in one fold after kMaxPieces pieces;
// from depth kDeepDepth on a node is a row of a flat list (html_parts.hpp says why). A thread's
// initial view draws about kInitialElements elements (a trace of at most half of them whole),
// opening a node only for kMinOpening elements or more, to its longest children (at most
// kLongestChildren: hundreds of them, a pass of thousands of cheap queries, told nothing the
// chip of the rest does not) when its important ones do not fit.
inline constexpr std::uint32_t kSmallRun = 4;
inline constexpr std::size_t kMaxPieces = 1'000;
inline constexpr std::uint32_t kDeepDepth = 32;
inline constexpr std::size_t kInitialElements = 4'000;
inline constexpr std::size_t kMinOpening = 8;
inline constexpr std::size_t kLongestChildren = 20;

// A provider's "callers" in the statistics name, in place of a provider index, this one for
// the calls that no query made: its runs at a thread's top level. Without it, a provider that
// only the program's own loop asks seemed called by nobody, or only by the few that hit it.
inline constexpr int kTopLevelCaller = -1;

}  // namespace qprof::detail::html::layout
