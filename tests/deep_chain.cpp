// A program whose queries form one chain DEPTH deep (each asks the next), without recursion:
// the reports of a deep trace, as the browser test opens them. With `siblings`, each level
// also asks two short queries after the deeper ones return, so the chain has side branches,
// and the top level waits for a join inside a wait for the same join (counted once).
//
//   deep_chain DEPTH [siblings] [-Z profile-queries=html ...]
#include <cstdlib>
#include <memory>
#include <qprof/qprof.hpp>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    qprof::Session session{argc, argv};
    const long depth = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1'000;
    if (depth <= 0 || depth > 1'000'000) {
        return 2;
    }
    static constinit qprof::detail::Site chain{"chain", __FILE__, __LINE__,
                                               qprof::detail::SiteKind::query};
    PROFILE_ACTIVITY("deep pass");
    std::vector<std::unique_ptr<qprof::detail::ScopeGuard>> open;
    for (long level = 0; level < depth; ++level) {
        open.push_back(
            std::make_unique<qprof::detail::ScopeGuard>(chain, qprof::detail::RecordKind::miss));
        if (level % 7 == 0) {
            PROFILE_QUERY_HIT(chain_hit);
        }
    }
    const bool siblings = argc > 2 && std::string{argv[2]} == "siblings";
    static constinit qprof::detail::Site side{"side", __FILE__, __LINE__,
                                              qprof::detail::SiteKind::query};
    while (!open.empty()) {
        open.pop_back();  // innermost first, as scopes end
        for (int i = 0; siblings && !open.empty() && i < 2; ++i) {
            const qprof::detail::ScopeGuard query{side, qprof::detail::RecordKind::miss};
        }
        if (siblings && open.size() == 1) {
            PROFILE_WAIT("join");
            const qprof::detail::ScopeGuard query{side, qprof::detail::RecordKind::miss};
            PROFILE_WAIT("join");
        }
    }
    return 0;
}
