#include "run_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "format.hpp"
#include "summary.hpp"

namespace qprof::cli {

namespace {

std::string quoted_argument(const std::string& argument) {
    const bool plain =
        !argument.empty() && std::all_of(argument.begin(), argument.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                   std::string_view{"_-./=:,+@%^"}.find(c) != std::string_view::npos ||
                   static_cast<unsigned char>(c) >= 0x80;
        });
    if (plain) {
        return detail::text_field(argument);
    }
    std::string quoted = "'";
    for (const char c : argument) {
        quoted += c == '\'' ? std::string{"'\\''"} : std::string(1, c);
    }
    return detail::text_field(quoted + "'");
}

// `text` cut to `columns` display columns, the last one "…" when cut.
std::string abbreviated(const std::string& text, std::size_t columns) {
    if (detail::display_width(text) <= columns) {
        return text;
    }
    std::size_t kept = 0;
    std::size_t end = 0;
    while (end < text.size() && kept + 1 < columns) {
        end += detail::next_utf8_char(text, end).length;
        ++kept;
    }
    return text.substr(0, end) + "\u2026";
}

// Peak RSS in MiB, "—" when the run could not tell.
std::string peak_rss_text(std::uint64_t bytes) {
    return bytes == 0 ? "\u2014" : detail::mib_text(bytes);
}

std::string run_json(const RunInfo& run) {
    std::string json = "{\"program\":" + detail::json_string(run.program) + ",\"argv\":[";
    for (std::size_t i = 0; i < run.argv.size(); ++i) {
        json += i > 0 ? "," : "";
        json += detail::json_string(run.argv[i]);
    }
    json += "],\"pid\":" + std::to_string(run.pid);
    json += ",\"parent_pid\":" + std::to_string(run.parent_pid);
    json += ",\"working_directory\":" + detail::json_string(run.working_directory);
    json += ",\"host\":" + detail::json_string(run.host);
    json += ",\"start_unix_ns\":" + std::to_string(run.start_unix_ns);
    json += ",\"end_unix_ns\":" + std::to_string(run.end_unix_ns);
    json += ",\"peak_rss_bytes\":" + std::to_string(run.peak_rss_bytes);
    json += ",\"start_offset_ns\":" + std::to_string(run.start_offset_ns);
    json += ",\"wall_ns\":" + std::to_string(run.wall_ns);
    json += ",\"events\":" + std::to_string(run.events) + "}";
    return json;
}

std::string runs_array(const Trace& trace) {
    std::string json = "[";
    for (std::size_t i = 0; i < trace.runs.size(); ++i) {
        json += (i > 0 ? ",\n" : "\n") + run_json(trace.runs[i]);
    }
    return json + "]";
}

void write_process_lines(const RunInfo& run, std::ostream& out) {
    if (!run.argv.empty()) {
        out << "command: " << command_text(run.argv) << '\n';
    }
    if (!run.working_directory.empty() || !run.host.empty()) {
        out << "directory: " << detail::text_field(run.working_directory);
        if (!run.host.empty()) {
            out << " on host " << detail::text_field(run.host);
        }
        out << '\n';
    }
    if (run.start_unix_ns != 0) {
        out << "ran: " << utc_text(run.start_unix_ns) << " to "
            << (run.end_unix_ns != 0 ? utc_text(run.end_unix_ns) : "(cut before its end)");
        if (run.peak_rss_bytes != 0) {
            out << ", peak RSS " << peak_rss_text(run.peak_rss_bytes) << " MiB";
        }
        out << '\n';
    }
}

}  // namespace

std::string command_text(const std::vector<std::string>& argv, std::size_t first) {
    std::string text;
    for (std::size_t i = first; i < argv.size(); ++i) {
        text += i > first ? " " : "";
        text += quoted_argument(argv[i]);
    }
    return text;
}

std::string utc_text(std::int64_t unix_ns) {
    const std::int64_t seconds = unix_ns / 1'000'000'000;
    const auto ms = static_cast<int>(unix_ns % 1'000'000'000 / 1'000'000);
    const std::time_t time = static_cast<std::time_t>(seconds);
    std::tm utc{};
    if (unix_ns < 0 || ::gmtime_r(&time, &utc) == nullptr) {
        return std::to_string(unix_ns) + " ns after 1970";
    }
    char text[64];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d %02d:%02d:%02d.%03d UTC", utc.tm_year + 1900,
                  utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, ms);
    return text;
}

void write_run_lines(const Trace& trace, std::ostream& out) {
    if (trace.runs.size() > 1) {
        out << "processes: " << trace.runs.size() << " (qprof summarize --by-process lists them)\n";
        return;
    }
    const RunInfo* run = trace.runs.empty() ? nullptr : &trace.runs.front();
    if (!trace.program.empty()) {
        out << "program: " << detail::text_field(trace.program);
        if (trace.pid != 0) {
            out << " (pid " << trace.pid;
            if (run != nullptr && run->parent_pid != 0) {
                out << ", parent " << run->parent_pid;
            }
            out << ')';
        }
        out << '\n';
    }
    if (run != nullptr) {
        write_process_lines(*run, out);
    }
}

std::string runs_json(const Trace& trace) { return "\"runs\":" + runs_array(trace); }

void write_processes_text(const Trace& trace, std::ostream& out) {
    using Align = detail::TextTable::Align;
    detail::TextTable table{{{"program", Align::left},
                             {"pid"},
                             {"arguments", Align::left},
                             {"start ms"},
                             {"wall ms"},
                             {"events"},
                             {"peak RSS MiB"}}};
    for (const RunInfo& run : trace.runs) {
        table.add_row({detail::text_field(run.program), std::to_string(run.pid),
                       abbreviated(command_text(run.argv, 1), kArgumentColumns),
                       detail::ms_text(run.start_offset_ns), detail::ms_text(run.wall_ns),
                       detail::with_thousands(run.events), peak_rss_text(run.peak_rss_bytes)});
    }
    table.write(out);
    const std::size_t count = trace.runs.size();
    out << count << (count == 1 ? " process, " : " processes, ") << detail::ms_text(trace.wall_ns)
        << " ms from the first start to the last end, " << events_text(trace) << '\n';
}

void write_processes_json(const Trace& trace, std::ostream& out) {
    out << "{\"wall_ns\":" << trace.wall_ns << ",\"events\":" << trace.events
        << ",\"processes\":" << runs_array(trace) << "}\n";
}

}  // namespace qprof::cli
