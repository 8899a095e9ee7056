// Numbers as qprof writes them: counts, decimals, durations, bytes and shares (format.hpp).
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "format.hpp"

namespace qprof::detail {

namespace {

std::uint64_t magnitude(std::int64_t value) {
    return value < 0 ? 0 - static_cast<std::uint64_t>(value) : static_cast<std::uint64_t>(value);
}

// One unit of an adaptive figure: the value is divided by `divisor` and shown with `decimals`.
struct Unit {
    double divisor;
    int decimals;
    const char* name;
};

// `value` in the first unit whose rounded figure stays under `limit` (the last unit takes the
// rest), so that 999,950 ns reads "1.00 ms", never "1000.0 µs"; whole numbers below `limit` are
// shown in `base`. A negative value is its magnitude with a sign. format.js's scaledText is the
// viewers' twin of this rule.
std::string scaled_text(std::int64_t value, const std::array<Unit, 3>& units, std::uint64_t limit,
                        const char* base) {
    const std::uint64_t size = magnitude(value);
    const std::string sign = value < 0 ? "-" : "";
    if (size < limit) {
        return sign + std::to_string(size) + base;
    }
    for (std::size_t i = 0;; ++i) {
        const std::string figure =
            decimal_text(static_cast<double>(size) / units[i].divisor, units[i].decimals);
        if (i + 1 == units.size() ||
            std::strtod(figure.c_str(), nullptr) < static_cast<double>(limit)) {
            return sign + figure + units[i].name;
        }
    }
}

// "+" before a change that is positive; a negative one has its own sign.
std::string plus_if_positive(std::int64_t value) { return value > 0 ? "+" : ""; }

}  // namespace

void append_with_thousands(std::string& out, std::uint64_t value) {
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    const auto count = static_cast<std::size_t>(end - digits);
    for (std::size_t i = 0; i < count; ++i) {
        if (i > 0 && (count - i) % 3 == 0) {
            out += ',';
        }
        out += digits[i];
    }
}

std::string with_thousands(std::uint64_t value) {
    std::string grouped;
    append_with_thousands(grouped, value);
    return grouped;
}

// Texts that begin with a sign are built by appending to it: GCC 12 warns (-Wrestrict, falsely)
// on `"-" + std::string`, whose insert at 0 it cannot prove does not overlap.
std::string signed_with_thousands(std::int64_t value) {
    std::string text{value < 0 ? "-" : ""};
    append_with_thousands(text, magnitude(value));
    return text;
}

std::string signed_count_text(std::int64_t value) {
    return plus_if_positive(value) + signed_with_thousands(value);
}

std::string count_text(std::uint64_t count, std::string_view singular, std::string_view plural) {
    std::string text = with_thousands(count);
    text += ' ';
    text += count == 1 ? singular : plural;
    return text;
}

std::string decimal_text(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

std::string number_text(double value) {
    if (!std::isfinite(value)) {
        return "null";
    }
    // Past 10^15 a double has no third decimal, and value * 1000 would round away its digits.
    const double rounded =
        std::abs(value) < 1e15 ? std::round(value * 1000) / 1000 + 0.0 : value;  // -0 becomes 0
    char text[400];
    auto [end, error] = std::to_chars(text, text + sizeof text, rounded, std::chars_format::fixed);
    if (error != std::errc{}) {  // too long for fixed notation
        end = std::to_chars(text, text + sizeof text, rounded).ptr;
    }
    return {text, end};
}

std::string duration_text(std::int64_t ns) {
    return scaled_text(ns, {{{1e3, 1, " \u00b5s"}, {1e6, 2, " ms"}, {1e9, 3, " s"}}}, 1000, " ns");
}

std::string ms_text(std::int64_t ns, int decimals) {
    std::string text;
    append_decimal(text, ns, 6, decimals, true);
    return text;
}

std::string signed_ms_text(std::int64_t ns) { return plus_if_positive(ns) + ms_text(ns); }

std::string seconds_text(std::int64_t ns, int decimals) {
    std::string text;
    append_decimal(text, ns, 9, decimals, false);
    return text;
}

std::string bytes_text(std::int64_t bytes) {
    constexpr double kKiB = 1024;
    return scaled_text(
        bytes, {{{kKiB, 1, " KiB"}, {kKiB * kKiB, 2, " MiB"}, {kKiB * kKiB * kKiB, 3, " GiB"}}},
        1024, " B");
}

std::string kib_text(std::int64_t bytes) {
    return decimal_text(static_cast<double>(bytes) / 1024.0, 1);
}

std::string signed_kib_text(std::int64_t bytes) {
    return plus_if_positive(bytes) + kib_text(bytes);
}

std::string mib_text(std::uint64_t bytes) {
    return decimal_text(static_cast<double>(bytes) / (1024.0 * 1024.0), 1);
}

double percent_of(std::int64_t part, std::int64_t whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string share_text(std::int64_t part, std::int64_t whole) {
    const double percent = percent_of(part, whole);
    return percent < 0.05 ? "<0.1 %" : decimal_text(percent, 1) + " %";
}

std::string column_share_text(std::int64_t part, std::int64_t whole) {
    return part > 0 ? share_text(part, whole) : "0.0 %";
}

std::string rate_text(std::uint64_t part, std::uint64_t whole) {
    if (whole == 0) {
        return "\u2013";
    }
    return decimal_text(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + " %";
}

std::string signed_percent_text(std::optional<double> percent) {
    if (!percent) {
        return "\u2014";
    }
    std::string text{*percent > 0 ? "+" : ""};
    text += decimal_text(*percent, 1);
    text += " %";
    return text;
}

}  // namespace qprof::detail
