// The texts and classes of profile_queries.html. reporters/html/texts.js makes the same ones
// for what the viewer draws later; the browser test compares the two.
#include <algorithm>
#include <unordered_map>

#include "format.hpp"
#include "html_parts.hpp"
#include "html_payload_layout.hpp"

namespace qprof::detail::html {

namespace {

std::string_view duration_bucket(std::int64_t ns) {
    constexpr std::string_view kBuckets[] = {
        "dur-lt-1us",  "dur-lt-10us",  "dur-lt-100us", "dur-lt-1ms",
        "dur-lt-10ms", "dur-lt-100ms", "dur-lt-1s",    "dur-lt-10s",
    };
    std::int64_t limit = 1'000;
    for (std::string_view bucket : kBuckets) {
        if (ns < limit) {
            return bucket;
        }
        limit *= 10;
    }
    return "dur-ge-10s";
}

// Border and box size grow with the share of the busy time.
std::string_view share_grade(std::int64_t ns, std::int64_t wall) {
    const double percent = percent_of(ns, wall);
    return percent < 0.1  ? "share-0"
           : percent < 1  ? "share-1"
           : percent < 5  ? "share-2"
           : percent < 20 ? "share-3"
                          : "share-4";
}

}  // namespace

std::string colour_css(const ProviderTotals& provider) {
    return provider.colour_class == 0
               ? std::string{}
               : " colour-" + std::to_string(layout::colour_slot(provider.colour_class));
}

void write_colour_classes(std::ostream& out, const Trace& trace) {
    out << '[';
    for (std::uint32_t i = 0; i < trace.colour_classes.size(); ++i) {
        out << (i > 0 ? "," : "") << "{\"name\":" << json_string(trace.colour_classes[i])
            << ",\"colour\":" << layout::colour_slot(i + 1) << '}';
    }
    out << ']';
}

void write_colour_legend(std::ostream& out, const Trace& trace, std::string_view sample) {
    for (std::uint32_t i = 0; i < trace.colour_classes.size(); ++i) {
        out << "<li><span class=\"" << sample << " colour-" << layout::colour_slot(i + 1)
            << "\"></span> <code>" << html_escape(trace.colour_classes[i])
            << "</code> a colour class (PROFILE_QUERY_CLASS, -Z profile-queries-colour): its "
               "providers' runs, loads and passes</li>\n";
    }
}

std::string node_class(const Trace& trace, const Preorder& order, const Work& work, std::uint32_t n,
                       const Importance& important) {
    const Node& node = order.node(n);
    std::string classes = "node ";
    classes += outcome_name(node.outcome);
    classes +=
        " depth-" + std::to_string(order.depth(n)) + " extent-" + std::to_string(node.extent);
    if (node.outcome == Outcome::hit) {
        return classes;
    }
    if (node.outcome != Outcome::blocked) {
        classes += colour_css(trace.provider_of(node));
    }
    classes += ' ';
    classes += duration_bucket(node.duration_ns());
    classes += ' ';
    classes += share_grade(work.of(n), important.total_ns());
    if (important(node)) {
        classes += " important";
    }
    if (node.unfinished) {
        classes += " unfinished";
    }
    if (order.depth(n) >= kDeepDepth) {
        classes += " deep";
    }
    return classes;
}

// A key as a label shows it: valid UTF-8 in at most layout::kLabelKeyChars characters; a longer
// key its first layout::kLabelKeyHeadChars, "…" and its last ones (labelKey in texts.js).
std::string label_key(std::string_view key) {
    std::string text = valid_utf8(key);
    std::size_t chars = 0;
    std::size_t head_end = 0;  // where the head's characters end
    for (std::size_t at = 0; at < text.size(); at += next_utf8_char(text, at).length) {
        if (chars++ == layout::kLabelKeyHeadChars) {
            head_end = at;
        }
    }
    if (chars <= layout::kLabelKeyChars) {
        return text;
    }
    const std::size_t tail_start_char =
        chars - (layout::kLabelKeyChars - layout::kLabelKeyHeadChars - 1);
    std::size_t at = head_end;
    for (std::size_t char_index = layout::kLabelKeyHeadChars; char_index < tail_start_char;
         ++char_index) {
        at += next_utf8_char(text, at).length;
    }
    std::string label = text.substr(0, head_end);
    label += "\u2026";
    label += std::string_view{text}.substr(at);
    return label;
}

std::string label_html(const Trace& trace, const Preorder& order, const Work& work, std::uint32_t n,
                       std::int64_t total_ns) {
    const Node& node = order.node(n);
    // An activity's argument is in its name already: "codegen unit(math)".
    const std::string_view key = node.outcome == Outcome::activity
                                     ? std::string_view{}
                                     : trace.key_of(order.thread(), order.post_index(n));
    std::string name = trace.name_of(order.thread(), order.post_index(n));
    if (!key.empty()) {
        name.append(1, '(').append(label_key(key)).append(1, ')');
    }
    const std::string numbers = " \u00b7 " + duration_text(node.duration_ns()) + " \u00b7 " +
                                (work.is_wait(n) ? "waiting" : share_text(work.of(n), total_ns));
    return "<span class=\"label\"><span class=\"name\">" + html_escape(name) + "</span>" +
           html_escape(numbers) + "</span>";
}

// " · P" when every top-level node of the run is provider P, " · mostly P" when P has at
// least half of the run's work (of its count when it did none), else nothing.
std::string run_provider_text(const Trace& trace, const Preorder& order, const Work& work,
                              std::uint32_t from, std::uint32_t to, std::int64_t run_ns) {
    const bool timed = run_ns > 0;
    std::unordered_map<std::uint32_t, std::int64_t> score;  // by provider
    std::int64_t total = 0;
    for (std::uint32_t n = from; n < to; n = order.end(n)) {
        const std::int64_t weight = timed ? work.of(n) : 1;
        score[trace.sites[order.node(n).site].provider_index] += weight;
        total += weight;
    }
    const auto best =
        std::max_element(score.begin(), score.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second < b.second : a.first > b.first;
        });
    if (best == score.end() || best->second * 2 < total) {
        return {};
    }
    return (score.size() == 1 ? " \u00b7 " : " \u00b7 mostly ") +
           trace.providers[best->first].provider;
}

std::string fold_text(const Trace& trace, const Preorder& order, const Work& work,
                      std::uint32_t from, std::uint32_t to, std::int64_t total_ns) {
    const std::uint32_t count = to - from;
    std::string text = "+";  // appended, not "+" + ...: g++ 12 warns falsely on that at -O3
    text += count_text(count, "query", "queries");
    text += " \u00b7 ";
    const std::int64_t run_ns = work.of_run(from, to);
    text += share_text(run_ns, total_ns);
    text += run_provider_text(trace, order, work, from, to, run_ns);
    return text;
}

}  // namespace qprof::detail::html
