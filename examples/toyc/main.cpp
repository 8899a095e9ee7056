// toyc: a toy compiler whose passes are memoised queries, profiled with qprof.
//
//   $ toyc -Z profile-queries            # writes profile_queries.counts.txt
//   $ toyc -Z profile-queries-and-keys   # and profile_queries.keys.txt: the costliest DefIds
//   $ toyc --items 200 --threads 1 -Z profile-queries=counts
//   $ toyc -Z profile-queries-memory     # and what each query allocated (the hook, below)
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <qprof/alloc_hook.hpp>  // once in the program: counts operator new for the memory flag
#include <qprof/qprof.hpp>

#include "driver.hpp"
#include "options.hpp"
#include "program.hpp"

namespace {

constexpr std::uint64_t kProgramSeed = 0x70726f66696c65;

int run(const toyc::Options& options) {
    if (options.help) {
        toyc::print_usage(std::cout);
        return 0;
    }
    const toyc::Program program = toyc::generate_program(options.items, kProgramSeed);
    const toyc::CompileResult result = toyc::compile(program, options.threads);
    std::printf("toyc: compiled %zu items (%" PRIu32 " functions), checksum 0x%016" PRIx64 "\n",
                program.items.size(), result.functions, result.checksum);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        // First, so that the -Z flags are gone from argv before toyc reads its own options.
        qprof::Session session{argc, argv};
        if (session.help_shown()) {  // -Z help printed qprof's flags
            return 0;
        }
        return run(toyc::parse_options(argc, argv));
    } catch (const qprof::SessionError& error) {  // a bad -Z flag, an unwritable directory
        std::cerr << error.what() << '\n';
        return 2;
    } catch (const toyc::UsageError& error) {
        std::cerr << "toyc: " << error.what() << '\n';
        return 2;
    }
}
