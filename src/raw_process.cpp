#include "raw_process.hpp"

namespace qprof::detail {

// PROCESS: u32 parent_pid, u32 argc, str working_directory, str host, argc x str argument.
void write_process(raw::BlockEncoder& out, const RunInfo& run) {
    out.u32(run.parent_pid);
    const std::size_t argc_at = out.later_u32();
    out.str(run.working_directory);
    out.str(run.host);
    std::uint32_t argc = 0;
    std::size_t bytes = 0;
    for (const std::string& argument : run.argv) {
        bytes += argument.size();
        if (bytes > kMaxArgvBytes) {
            out.str("[" + std::to_string(run.argv.size() - argc) + " more arguments not kept]");
            ++argc;
            break;
        }
        out.str(argument);
        ++argc;
    }
    out.set_u32(argc_at, argc);
}

// END from 1.1 on: after 1.0's fields, u64 end_unix_ns, u64 peak_rss_bytes.
void write_end_process(raw::BlockEncoder& out, const RunInfo& run) {
    out.u64(static_cast<std::uint64_t>(run.end_unix_ns));
    out.u64(run.peak_rss_bytes);
}

void read_process(raw::PayloadReader& in, RunInfo& run) {
    run.parent_pid = in.u32();
    const std::uint64_t argc_at = in.offset();
    const std::uint32_t argc = in.u32();
    run.working_directory = std::string{in.str()};
    run.host = std::string{in.str()};
    if (argc > in.remaining() / 4) {  // each argument takes 4 bytes at least
        in.fail(std::to_string(argc) + " arguments declared (expected at most " +
                    std::to_string(in.remaining() / 4) + ", what the block holds)",
                argc_at);
    }
    std::vector<std::string> argv;
    argv.reserve(argc);
    for (std::uint32_t i = 0; i < argc; ++i) {
        argv.emplace_back(in.str());
    }
    run.argv = std::move(argv);
}

void read_end_process(raw::PayloadReader& in, RunInfo& run) {
    if (in.remaining() < 16) {
        return;  // written by 1.0: no end time, no peak RSS
    }
    run.end_unix_ns = static_cast<std::int64_t>(in.u64());
    run.peak_rss_bytes = in.u64();
}

}  // namespace qprof::detail
