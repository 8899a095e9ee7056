// The progress line: drawn with a carriage return over itself, erased with ESC [ K.
#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "format.hpp"
#include "summary.hpp"

namespace qprof::cli {

namespace {

constexpr std::string_view kErase = "\r\x1b[K";
constexpr int kFallbackColumns = 80;
constexpr std::size_t kMinBar = 10;
constexpr std::size_t kMaxBar = 40;
// The first half second gives too few bytes for a rate worth showing.
constexpr std::int64_t kMinElapsedForRate = 500'000'000;

int stderr_columns() {
    winsize size{};
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) {
        return kFallbackColumns;
    }
    return size.ws_col;
}

std::int64_t steady_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// "72/160 MB", or "1.5/12.0 GB" from 10 GB on; decimal units, as disks are sold.
std::string sizes_text(std::uint64_t done, std::uint64_t total) {
    char text[64];
    if (total >= 10'000'000'000) {
        std::snprintf(text, sizeof text, "%.1f/%.1f GB", static_cast<double>(done) / 1e9,
                      static_cast<double>(total) / 1e9);
    } else {
        std::snprintf(text, sizeof text, "%llu/%llu MB",
                      static_cast<unsigned long long>(done / 1'000'000),
                      static_cast<unsigned long long>(total / 1'000'000));
    }
    return text;
}

// "  1.1 s left" at the rate so far, or "" before there is one.
std::string time_left_text(std::uint64_t done, std::uint64_t total, std::int64_t elapsed_ns) {
    if (done == 0 || done >= total || elapsed_ns < kMinElapsedForRate) {
        return "";
    }
    const double left_s = static_cast<double>(elapsed_ns) / 1e9 *
                          static_cast<double>(total - done) / static_cast<double>(done);
    char text[48];
    if (left_s < 60) {
        std::snprintf(text, sizeof text, "  %.1f s left", left_s);
    } else {
        const long long seconds = std::llround(left_s);
        std::snprintf(text, sizeof text, "  %lld min %02lld s left", seconds / 60, seconds % 60);
    }
    return text;
}

// `text` cut to at most `columns` columns, never inside a UTF-8 character.
std::string cut_to(std::string text, std::size_t columns) {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool starts_character = (static_cast<unsigned char>(text[i]) & 0xc0) != 0x80;
        if (starts_character && seen++ == columns) {
            text.resize(i);
            break;
        }
    }
    return text;
}

}  // namespace

bool Progress::wanted(std::uint64_t total_bytes, bool turned_off) {
    return wanted(total_bytes, turned_off, isatty(STDERR_FILENO) == 1);
}

bool Progress::wanted(std::uint64_t total_bytes, bool turned_off, bool stderr_is_terminal) {
    return !turned_off && stderr_is_terminal && total_bytes >= kMinBytes;
}

Progress::Terminal Progress::standard_error() {
    return {&std::cerr, steady_now_ns, stderr_columns};
}

Progress::Progress(std::string label, std::uint64_t total_bytes, bool enabled)
    : Progress(std::move(label), total_bytes, enabled, standard_error()) {}

Progress::Progress(std::string label, std::uint64_t total_bytes, bool enabled, Terminal terminal)
    : label_(std::move(label)),
      total_bytes_(total_bytes),
      enabled_(enabled),
      terminal_(std::move(terminal)) {
    if (enabled_) {
        start_ns_ = terminal_.now_ns();
    }
}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done_bytes) {
    if (!enabled_) {
        return;
    }
    const std::int64_t now = terminal_.now_ns();
    if (on_screen_ && now - drawn_ns_ < kRepaintNs) {
        return;
    }
    *terminal_.out << '\r' << line(done_bytes, now - start_ns_, terminal_.columns()) << "\x1b[K"
                   << std::flush;
    drawn_ns_ = now;
    on_screen_ = true;
}

void Progress::clear() {
    if (on_screen_) {
        *terminal_.out << kErase << std::flush;
        on_screen_ = false;
    }
}

void Progress::finish() {
    clear();
    enabled_ = false;
}

std::string Progress::line(std::uint64_t done_bytes, std::int64_t elapsed_ns, int columns) const {
    const std::uint64_t done = std::min(done_bytes, total_bytes_);
    const std::uint64_t percent = total_bytes_ > 0 ? done * 100 / total_bytes_ : 100;
    const std::string head = "qprof: " + label_ + " [";
    const std::string tail = "] " + std::to_string(percent) + "%  " +
                             sizes_text(done, total_bytes_) +
                             time_left_text(done, total_bytes_, elapsed_ns);
    // One column short of the width: a line that fills it would wrap on some terminals.
    const std::size_t width = static_cast<std::size_t>(std::max(columns, 2) - 1);
    const std::size_t room =
        width - std::min(width, detail::display_width(head) + detail::display_width(tail));
    const std::size_t bar = std::min(room, kMaxBar);
    if (bar < kMinBar) {
        std::string line = cut_to("qprof: " + label_ + " " + tail.substr(2), width);
        return line.erase(line.find_last_not_of(' ') + 1);
    }
    const std::size_t filled = total_bytes_ > 0 ? bar * done / total_bytes_ : bar;
    return head + std::string(filled, '#') + std::string(bar - filled, '-') + tail;
}

}  // namespace qprof::cli
