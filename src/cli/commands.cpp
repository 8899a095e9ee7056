#include "commands.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <qprof/reporter.hpp>
#include <qprof/session.hpp>
#include <string>
#include <string_view>
#include <utility>

#include "args.hpp"
#include "diff.hpp"
#include "flag_values.hpp"
#include "format.hpp"
#include "input.hpp"
#include "merge.hpp"
#include "raw_writer.hpp"
#include "report_writer.hpp"
#include "summary.hpp"
#include "text.hpp"

namespace qprof::cli {

namespace {

// Runs a subcommand's body, turning a usage mistake into its message and status 1, and a
// standard output that could not take everything into status 1 too.
template <typename Body>
int with_usage(const CommandSpec& command, std::span<const std::string> words, Body body) {
    try {
        const ParsedArgs args = parse_args(command, words);
        if (args.help) {
            std::cout << help_text(command);
            return checked_stdout(kExitOk);
        }
        return checked_stdout(body(args));
    } catch (const UsageError& error) {
        std::cerr << error.what() << '\n';
        return kExitFailed;
    }
}

LoadOptions load_options(const ParsedArgs& args, bool keep_nodes) {
    return LoadOptions{
        .keep_nodes = keep_nodes, .quiet = false, .progress = !args.has("no-progress")};
}

const OptionSpec kNoProgress{"no-progress", 'q', "", "no progress bar on stderr while reading"};

CommandSpec report_command() {
    return {
        "report",
        "Writes reports of a saved run, as the program itself would have written them at "
        "its end: the same bytes for the same run. The report options the run was started "
        "with are used unless given here.",
        {{"reporters", 0, "LIST", "reports to write, separated by commas (default: counts,html)"},
         {"output", 'o', "DIR", "directory to write them in (default: the current one)"},
         {"important", 0, "EXTENT,PERCENT", "as -Z profile-queries-important"},
         {"folded", 0, "OPTIONS",
          "as -Z profile-queries-folded (merge-threads,hits,keys,args,classes,bytes)"},
         {"chrome", 0, "OPTIONS", "as -Z profile-queries-chrome (hits,keys)"},
         kNoProgress},
        {{"FILE", "a saved run (.qprof)"}}};
}

// A message of the -Z flag parser as the command's options say it: the user of qprof report
// typed --reporters=htm, not -Z profile-queries=htm (in the quoted flag and in the examples).
std::string in_option_words(std::string message) {
    static constexpr std::pair<std::string_view, std::string_view> kWords[] = {
        {"-Z profile-queries=", "--reporters="},
        {"-Z profile-queries-important=", "--important="},
        {"-Z profile-queries-folded=", "--folded="},
        {"-Z profile-queries-chrome=", "--chrome="},
    };
    for (const auto& [flag, option] : kWords) {
        for (std::size_t at = message.find(flag); at != std::string::npos;
             at = message.find(flag, at + option.size())) {
            message.replace(at, flag.size(), option);
        }
    }
    return message;
}

// The -Z flag parser checks report options the same way for a run and for qprof report.
SessionOptions parse_as_flags(const CommandSpec& command, const std::vector<std::string>& flags) {
    std::vector<std::string> words{"qprof"};
    for (const std::string& flag : flags) {
        words.push_back("-Z");
        words.push_back(flag);
    }
    std::vector<char*> argv;
    argv.reserve(words.size() + 1);
    for (std::string& word : words) {
        argv.push_back(word.data());
    }
    argv.push_back(nullptr);
    int argc = static_cast<int>(words.size());
    try {
        return parse_flags(argc, argv.data(), nullptr);
    } catch (const FlagError& error) {
        // without "qprof: "
        throw usage_error(command, in_option_words(std::string{error.what()}.substr(7)));
    }
}

// The raw stream is qprof report's input, not one of its reports: refused with a word on
// what to do instead, and left out of the names an unknown reporter is told to choose from.
void check_report_names(const CommandSpec& command, const std::string& reporters) {
    std::vector<std::string> accepted = reporter_names();
    std::erase(accepted, std::string{detail::kRawReporter});
    for (const std::string& name : detail::split(reporters, ',')) {
        if (name == detail::kRawReporter) {
            throw usage_error(command,
                              "the raw stream is the input, not a report; to combine "
                              "saved streams use 'qprof merge'.");
        }
        if (!name.empty() && std::find(accepted.begin(), accepted.end(), name) == accepted.end()) {
            const detail::FlagUse use{"profile-queries", reporters, ""};
            throw usage_error(command,
                              in_option_words(detail::choice_error("reporter", name, use, accepted)
                                                  .substr(7)));  // without "qprof: "
        }
    }
}

SessionOptions report_session(const ParsedArgs& args, const ReportOptions& recorded) {
    const CommandSpec command = report_command();
    const std::string reporters = args.value_or("reporters", "counts,html");
    check_report_names(command, reporters);
    std::vector<std::string> flags{"profile-queries=" + reporters};
    for (const char* option : {"important", "folded", "chrome"}) {
        if (args.has(option)) {
            flags.push_back("profile-queries-" + std::string{option} + "=" +
                            args.value_or(option, ""));
        }
    }
    SessionOptions options = parse_as_flags(command, flags);
    const ReportOptions given = options.report;
    options.report = recorded;
    if (args.has("important")) {
        options.report.important_extent = given.important_extent;
        options.report.important_percent = given.important_percent;
    }
    if (args.has("folded")) {
        options.report.folded_merge_threads = given.folded_merge_threads;
        options.report.folded_hits = given.folded_hits;
        options.report.folded_keys = given.folded_keys;
        options.report.folded_args = given.folded_args;
        options.report.folded_classes = given.folded_classes;
        options.report.folded_bytes = given.folded_bytes;
    }
    if (args.has("chrome")) {
        options.report.chrome_hits = given.chrome_hits;
        options.report.chrome_keys = given.chrome_keys;
    }
    options.output_dir = args.value_or("output", ".");
    return options;
}

CommandSpec merge_command() {
    return {"merge",
            "Combines saved runs -- every process of a build, say -- into one file whose "
            "reports and summary cover them all. Read back, each run stands at its real start "
            "time on one timeline and keeps its own threads, named after its program and "
            "process id ('qprof summarize --by-process' lists the runs). Only complete runs "
            "are merged; OUT is replaced only when all were. The inputs are read on every core "
            "and written as each is read, so memory holds a few of them, however many.",
            {{"output", 'o', "OUT", "the file to write (required)"}, kNoProgress},
            {{"FILE|DIR...",
              "the saved runs (.qprof), one or more; a directory stands for every .qprof file "
              "in it (not in its subdirectories)"}}};
}

bool same_file(const std::string& a, const std::string& b) {
    std::error_code error;
    return std::filesystem::equivalent(a, b, error);
}

// Whether a reporter asked for reads the nodes; when none does, the run is read into totals
// only, fast and in flat memory. Unknown names are left for the flag parser to refuse.
bool needs_nodes(const ParsedArgs& args) {
    for (const std::string& name : detail::split(args.value_or("reporters", "counts,html"), ',')) {
        if (std::unique_ptr<Reporter> reporter = make_reporter(name);
            reporter && reporter->needs_nodes()) {
            return true;
        }
    }
    return false;
}

}  // namespace

// The inputs to merge: each file as given, each directory as its *.qprof files in name
// order, leaving out the output (a directory merged into itself).
std::vector<std::string> merge_paths(const CommandSpec& command,
                                     const std::vector<std::string>& positionals,
                                     const std::string& out_path) {
    namespace fs = std::filesystem;
    std::vector<std::string> paths;
    for (const std::string& given : positionals) {
        std::error_code error;
        if (!fs::is_directory(given, error)) {
            paths.push_back(given);
            continue;
        }
        std::vector<std::string> found;
        for (const fs::directory_entry& entry : fs::directory_iterator(given, error)) {
            if (entry.path().extension() == ".qprof" && entry.is_regular_file(error) &&
                !same_file(entry.path().string(), out_path)) {
                found.push_back(entry.path().string());
            }
        }
        if (error) {
            throw usage_error(
                command, "cannot read the directory '" + given + "': " + error.message() + ".");
        }
        if (found.empty()) {
            throw usage_error(command, "no saved run (*.qprof) in the directory '" + given + "'.");
        }
        std::sort(found.begin(), found.end());
        paths.insert(paths.end(), found.begin(), found.end());
    }
    return paths;
}

int run_merge(std::span<const std::string> words) {
    const CommandSpec command = merge_command();
    return with_usage(command, words, [&](const ParsedArgs& args) {
        if (!args.has("output")) {
            throw usage_error(command, "missing '-o OUT', the file to write.");
        }
        const std::string out_path = args.value_or("output", "");
        const std::vector<std::string> paths = merge_paths(command, args.positionals, out_path);
        for (const std::string& path : paths) {
            if (same_file(path, out_path)) {
                throw usage_error(command, "'" + out_path +
                                               "' is both an input and the output; "
                                               "write the merged runs to a new file.");
            }
        }
        const MergeResult merged =
            merge_files(paths, out_path, {.progress = !args.has("no-progress")});
        if (merged.status == kExitOk) {
            std::cerr << "qprof: merged " << merged.runs << (merged.runs == 1 ? " run" : " runs")
                      << " (" << detail::count_text(merged.events, "event", "events") << ") from "
                      << paths.size() << (paths.size() == 1 ? " file" : " files") << " into "
                      << out_path << '\n';
        }
        return merged.status;
    });
}

int run_summarize(std::span<const std::string> words) {
    const CommandSpec command = summarize_command();
    return with_usage(command, words, [&](const ParsedArgs& args) {
        const SummaryOptions options = summary_options(args);
        const LoadedTrace loaded = load_trace(args.positionals[0], load_options(args, false));
        if (loaded.status != kExitFailed) {
            check_sort(loaded.trace, options);
            write_summary(loaded.trace, options, std::cout);
        }
        return loaded.status;
    });
}

int run_report(std::span<const std::string> words) {
    return with_usage(report_command(), words, [&](const ParsedArgs& args) {
        const LoadedTrace loaded =
            load_trace(args.positionals[0], load_options(args, needs_nodes(args)));
        if (loaded.status == kExitFailed) {
            return kExitFailed;
        }
        const SessionOptions options = report_session(args, loaded.report);
        if (options.report.folded_bytes && !loaded.trace.memory_recorded &&
            std::count(options.reporters.begin(), options.reporters.end(), "folded")) {
            throw usage_error(report_command(),
                              "'" + args.positionals[0] +
                                  "' records no allocations (its run had no "
                                  "-Z profile-queries-memory), so the folded report cannot weigh "
                                  "stacks by bytes; give --folded without 'bytes'.");
        }
        try {
            detail::check_output_dir(options.output_dir,
                                     "Choose a writable directory with '-o DIR'.");
        } catch (const OutputError& error) {
            std::cerr << error.what() << '\n';
            return kExitFailed;
        }
        detail::ReportFiles files{detail::absolute_dir(options.output_dir), "profile_queries",
                                  detail::ReportFiles::Existing::replace};
        const std::vector<std::string> written =
            detail::write_reports(loaded.trace, options, files, {}, "read");
        return written.size() < options.reporters.size() ? kExitFailed : loaded.status;
    });
}

int run_diff(std::span<const std::string> words) {
    const CommandSpec command = diff_command();
    return with_usage(command, words, [&](const ParsedArgs& args) {
        const DiffOptions options = diff_options(args);
        const LoadedTrace base = load_trace(args.positionals[0], load_options(args, false));
        const LoadedTrace next = load_trace(args.positionals[1], load_options(args, false));
        if (base.status == kExitFailed || next.status == kExitFailed) {
            return kExitFailed;
        }
        write_diff({args.positionals[0], base.trace}, {args.positionals[1], next.trace}, options,
                   std::cout);
        return std::max(base.status, next.status);
    });
}

}  // namespace qprof::cli
