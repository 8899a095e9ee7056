// The pieces of profile_queries.html that html_reporter.cpp puts together: the importance
// rule, the initial view of a thread's tree, the payload (compressed columns and JSON) the
// viewer reads, and the texts and classes both the page and the viewer show. The viewer
// (reporters/html/*.js) follows the same rules to draw what this leaves folded; the browser
// test checks that the two agree. The whole contract: docs/html-report.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <qprof/report_options.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "deflate.hpp"
#include "format.hpp"
#include "html_payload_layout.hpp"
#include "preorder.hpp"

namespace qprof::detail::html {

// Important: at least `percent` % of the page's time, or an extent of `extent` or more while
// taking at least 0.1 % (or `percent`, if lower) -- so that a wide graph of cheap nodes does
// not take the page's room. Important nodes are drawn on their own, opened first and outlined;
// every box is labelled, important or not. Shares are of `total_ns`, which every share on the
// page is of.
class Importance {
  public:
    // A wide node is important only if it also takes this share of the time (or PERCENT, when
    // that is lower): a build graph has thousands of cheap nodes with 6 children.
    static constexpr double kExtentFloorPercent = 0.1;

    Importance(const ReportOptions& options, std::int64_t total_ns);
    // In line: a node read by value from the store stays in registers instead of being
    // written out for a call, as every sibling in a run is asked.
    bool operator()(const Node& node) const {
        return (*this)(node.outcome, node.duration_ns(), node.extent);
    }
    // The same from the three fields it reads, for a walk that reads no whole node.
    bool operator()(Outcome outcome, std::int64_t duration_ns, std::uint32_t extent) const {
        if (outcome == Outcome::hit) {
            return false;
        }
        // Without a total (an empty or instant session) shares mean nothing: extent decides.
        if (total_ns_ <= 0) {
            return extent >= extent_;
        }
        const double percent =
            static_cast<double>(duration_ns) * 100.0 / static_cast<double>(total_ns_);
        const double floor = std::min(percent_, kExtentFloorPercent);
        return percent >= percent_ || (extent >= extent_ && percent >= floor);
    }
    std::int64_t total_ns() const { return total_ns_; }
    std::uint32_t extent() const { return extent_; }
    double percent() const { return percent_; }

  private:
    std::uint32_t extent_;
    double percent_;
    std::int64_t total_ns_;
};

// How siblings are ordered on the page: heaviest first (the default), or as they were called.
enum class SiblingOrder { heaviest, call };

// How a sibling run [from, to) is drawn: each important node on its own, each maximal run of
// other nodes as one fold -- or node by node when the run holds kSmallRun nodes or fewer --
// and, once kMaxPieces pieces are out, all the remaining siblings as one fold.
struct Piece {
    std::uint32_t from = 0;
    std::uint32_t to = 0;  // a node: its subtree's end
    bool fold = false;
    // A chip (a fold with a provider): the top-level siblings of one provider, `members`, that
    // the folds of a sibling list held, drawn as one chip -- see merge_folds.
    std::optional<std::uint32_t> provider;
    std::vector<std::uint32_t> members;
    // A node drawn on its own only because its run of other siblings was too small to fold:
    // merge_folds takes it into its provider's chip.
    bool loose = false;
};
using layout::kSmallRun;
// Deep chains are drawn flattened: from this depth on a node is a row (class `deep`) of a flat
// list inside its ancestor at depth kDeepDepth - 1, its children the rows after it, because
// nested boxes take a browser super-linear time to lay out and the HTML parser nests at most
// 512 elements. The markup never nests deeper than kDeepDepth boxes.
using layout::kDeepDepth;
using layout::kMaxPieces;
// With `min_ns`, the siblings at least that long are the ones drawn on their own, important
// or not: a node opened to show only its longest children.
std::vector<Piece> pieces(const Preorder& order, const Importance& important, std::uint32_t from,
                          std::uint32_t to, std::optional<std::int64_t> min_ns = std::nullopt);
// Every sibling of [from, to) on its own (a trace drawn whole), but past kMaxPieces the rest
// in one fold.
std::vector<Piece> all_pieces(const Preorder& order, std::uint32_t from, std::uint32_t to);

// The thread's tree as the page first shows it: every root opened within its share of the
// budget, then important nodes, longest first, each wholly or only its longest children
// (important or not, when the important ones are too many or none),
// until about `budget` elements are drawn; everything else folded. A trace of at most half
// the budget is drawn whole. Returns the elements drawn (labels not counted).
std::size_t write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                               const Importance& important, std::size_t budget,
                               SiblingOrder sibling_order = SiblingOrder::heaviest);
class Work;
// The same with the thread's work already known (the page knows it for every thread).
std::size_t write_initial_tree(std::ostream& out, const Trace& trace, const Preorder& order,
                               const Work& work, const Importance& important, std::size_t budget,
                               SiblingOrder sibling_order = SiblingOrder::heaviest);
// A thread's nodes as work: what of each node's time was not waiting. Every share on the page
// is of work over the busy time, so no share passes 100 % and a wait has none.
class Work {
  public:
    explicit Work(const Preorder& order);
    // A node's duration less the waits (blocked nodes) in its subtree: 0 for a wait or a hit.
    std::int64_t of(std::uint32_t n) const { return order_->duration_ns(n) - waits_inside(n); }
    // The summed work of the top-level nodes of the sibling run [from, to).
    std::int64_t of_run(std::uint32_t from, std::uint32_t to) const;
    // of_run(0, size()), the thread's busy time: summed as the work is found, since the page
    // asks it twice and a walk over tens of thousands of roots costs a node's read each.
    std::int64_t of_thread() const { return of_thread_; }
    // The waits in n's subtree, its own included.
    std::int64_t waits_inside(std::uint32_t n) const { return waits_.empty() ? 0 : waits_[n]; }
    bool is_wait(std::uint32_t n) const { return order_->outcome(n) == Outcome::blocked; }
    std::uint32_t size() const { return order_->size(); }

  private:
    const Preorder* order_;
    std::vector<std::int64_t> waits_;  // by node; empty when the thread has no wait
    std::int64_t of_thread_ = 0;
};

// The denominator of every share on the page: the busy time of all threads together (the
// summed work of their top-level nodes: their durations less the waits inside), or the wall
// time when nothing was timed.
std::int64_t busy_ns(const Trace& trace, const std::vector<Work>& works);

// A list of siblings with two folds or more -- a wide pass opened to its longest children
// leaves one between every two of them, a wall of chips -- has its folds merged, one chip per
// provider of their top-level nodes: "⋯ 3,412 typeck runs · 2.10 ms". The loose nodes between
// them (runs too small to fold) go into the chips too: otherwise hundreds of boxes of cheap
// nodes stood beside the chip. A chip spans its first member's start to its last
// member's end, over all the chips; its members are the nodes of its provider there that the
// list does not draw. Not for rows (depth kDeepDepth and more): their lists nest.
void merge_folds(const Trace& trace, const Preorder& order, std::vector<Piece>& drawn);
// "⋯ 3,000 typeck runs, 412 hits · 2.10 ms": the members by outcome, and their time.
std::string chip_text(const Trace& trace, const Preorder& order, std::uint32_t provider,
                      const std::vector<std::uint32_t>& members);

// Heaviest first: the pieces by their work (a fold by its top-level nodes'), most first, then
// the waits, longest first; ties in call order. A wait is not work, so it never leads a list
// however long it lasted.
void sort_heaviest_first(const Preorder& order, const Work& work, std::vector<Piece>& drawn);

// The whole trace for the viewer (docs/html-report.md): first its columns and its keys'
// texts in one zlib stream (compressed, or stored when small: columns_method), as base64;
// then JSON with the rest and the size of each part: of each column (name, bytes) of each
// thread, and of the keys' lengths and texts.
struct PayloadColumns {
    std::vector<std::vector<std::pair<std::string_view, std::uint64_t>>> threads;
    std::uint64_t key_count = 0;
    std::uint64_t key_length_bytes = 0;
    std::uint64_t key_text_bytes = 0;
    std::uint64_t hit_keys = 0;       // hits whose key the key column holds
    std::uint64_t hits_left_out = 0;  // hits whose key it leaves out (layout::kKeyLeftOut)
};
// Small columns are stored in the page as they are (base64 still, in DEFLATE's stored blocks):
// compressing them costs the end of the run about 6 ns a byte, 7 ms for 280,000 events, to
// save a megabyte or two of a local file. Larger ones are compressed, which keeps a page of ten
// million events within its budget. Small is this many bytes at most, counting the least the
// columns can take: a byte a value, and the keys' texts.
inline constexpr std::uint64_t kStoredColumnsBytes = 2 << 20;
// The least the columns of `orders` and the keys' texts can take, in bytes.
std::uint64_t columns_least_bytes(const Trace& trace, const std::vector<Preorder>& orders);
// How columns of `least_bytes` (columns_least_bytes) go into the page: stored if they are small
// (kStoredColumnsBytes, unless a test sets another limit: set_stored_columns_limit), compressed
// otherwise.
Deflater::Method columns_method(std::uint64_t least_bytes);
// For tests: columns_method's limit in bytes.
void set_stored_columns_limit(std::uint64_t bytes);
// Without `hit_keys`, hits' keys are left out of the key column (layout::kColumnsBudgetBytes).
PayloadColumns write_payload_columns(std::ostream& out, const Trace& trace,
                                     const std::vector<Preorder>& orders,
                                     const Importance& important, bool hit_keys,
                                     Deflater::Method method);
// For tests: the HTML reporter makes the columns on at most this many threads of its own (2,
// the default: one encodes, one compresses), as if no more could start.
void allow_payload_threads(int threads);
// For tests: the size of the columns' text past which the HTML reporter leaves hits' keys out
// (layout::kColumnsBudgetBytes unless a test pretends the page is that heavy).
void set_columns_budget(std::uint64_t bytes);
// The same columns and keys uncompressed, given to `sink` in pieces: the bytes
// write_payload_columns compresses, in the same pieces.
using ByteSink = std::function<void(std::string_view)>;
PayloadColumns encode_payload_columns(const ByteSink& sink, const Trace& trace,
                                      const std::vector<Preorder>& orders,
                                      const Importance& important, bool hit_keys = true);
struct ProviderStats;
void write_payload(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                   const Importance& important, const std::vector<ProviderStats>& stats,
                   const PayloadColumns& columns);

// Sizes and counters (html_measures.cpp): their tables, nothing when the run recorded none;
// in the payload, the counters' names and each thread's values, each when there are some.
void write_measure_tables(std::ostream& out, const Trace& trace);
void write_counter_names(std::ostream& out, const Trace& trace);
void write_thread_counters(std::ostream& out, const ThreadTrace& thread);

// The widest and the deepest nodes, as two lists (html_shapes.cpp).
void write_shapes(std::ostream& out, const Trace& trace, const std::vector<Preorder>& orders,
                  const std::vector<Work>& works, std::int64_t total_ns);

// The header: the run in numbers and where the time went (html_summary.cpp).
struct ProviderStats;
void write_run_header(std::ostream& out, const Trace& trace,
                      const std::vector<ProviderStats>& stats, std::int64_t total_ns);

// reporters/html/viewer.css and the viewer's scripts, embedded at build time (embed_viewer.py).
void write_viewer_css(std::ostream& out);
void write_viewer_js(std::ostream& out);

// Texts and classes; numbers as format.hpp writes them for the pages (duration_text,
// bytes_text, share_text, rate_text).
// Shares are of work (Work::of); a wait has none: its label says "waiting".
// A node of a provider with a colour class takes "colour-N" too, unless it is a hit or a wait,
// which keep their outcome's colour.
std::string node_class(const Trace& trace, const Preorder& order, const Work& work, std::uint32_t n,
                       const Importance& important);
// " colour-N" for a provider with a colour class (html_payload_layout.hpp), else "".
std::string colour_css(const ProviderTotals& provider);
// [{"name":"codegen","colour":0},...]: Trace::colour_classes with their slots, as the HTML and
// flame graph payloads give them.
void write_colour_classes(std::ostream& out, const Trace& trace);
// One legend item per colour class: `<li><span class="SAMPLE colour-N"></span> <code>CLASS</code>
// ...</li>`, so that a page's legend names every class it draws.
void write_colour_legend(std::ostream& out, const Trace& trace, std::string_view sample);
// A key as a node's label shows it: cut to layout::kLabelKeyChars characters with "…".
std::string label_key(std::string_view key);
// A node's label, "typeck · 4.56 ms · 12.3 %" ("type_of(fn_12) · …"; a wait's "… · waiting"), as
// markup: `<span class="label"><span class="name">typeck</span> · 4.56 ms · 12.3 %</span>`, so
// that a narrow box cuts the name, never the numbers (labelHtml in texts.js).
std::string label_html(const Trace& trace, const Preorder& order, const Work& work, std::uint32_t n,
                       std::int64_t total_ns);
std::string fold_text(const Trace& trace, const Preorder& order, const Work& work,
                      std::uint32_t from, std::uint32_t to,
                      std::int64_t total_ns);  // "+1,240 queries · 3.1 % · mostly P"

}  // namespace qprof::detail::html
