#include "dependency_scan.hpp"

#include <cstdint>
#include <qprof/qprof.hpp>
#include <set>

namespace qprof::test {

std::string scanned_file(int node) { return "src/file" + std::to_string(node) + ".cc"; }

void dependency_scan(int nodes) {
    std::set<int> timed;
    std::uint32_t random = 7;
    for (int i = 0; i < nodes; ++i) {
        PROFILE_QUERY(dirty, i);
        for (int d = 0; d < 3 && i > 0; ++d) {
            random = random * 1103515245u + 12345u;
            const int dep = static_cast<int>((random >> 8) % static_cast<std::uint32_t>(i));
            PROFILE_QUERY_HIT(dirty, dep);
            if (timed.insert(dep).second) {
                PROFILE_QUERY(mtime, scanned_file(dep));
            } else {
                PROFILE_QUERY_HIT(mtime, scanned_file(dep));
            }
        }
    }
}

}  // namespace qprof::test
