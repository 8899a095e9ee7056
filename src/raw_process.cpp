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
            out.str(std::to_string(run.argv.size() - argc).insert(0, 1, '[') +
                    " more arguments not kept]");
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

}  // namespace qprof::detail
