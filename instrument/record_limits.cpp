#include <atomic>
#include <cstdio>
#include <qprof/detail/record_limits.hpp>

namespace qprof::detail {

namespace {

const char* limit_message(Limit limit) {
    switch (limit) {
        case Limit::threads:
            return "qprof: warning: more than 65,536 threads joined this session; the events of "
                   "the later ones are not recorded (a raw stream cannot name more)\n";
        case Limit::depth:
            return "qprof: warning: scopes nested more than 1,048,575 deep; the deeper scopes are "
                   "not recorded, and hits inside them are shown at the deepest recorded level\n";
        case Limit::name:
            return "qprof: warning: a provider, file or thread name longer than 1 MiB is cut to "
                   "1 MiB in every report\n";
    }
    return "";
}

}  // namespace

void warn_limit(Limit limit) {
    static std::atomic<bool> warned[3]{};
    if (!warned[static_cast<int>(limit)].exchange(true, std::memory_order_relaxed)) {
        std::fputs(limit_message(limit), stderr);
    }
}

void cap_name(std::string& name) {
    if (name.size() <= kMaxNameBytes) {
        return;
    }
    std::size_t cut = kMaxNameBytes;
    while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) {
        --cut;  // not inside a UTF-8 sequence
    }
    name.resize(cut);
    warn_limit(Limit::name);
}

}  // namespace qprof::detail
