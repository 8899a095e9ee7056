// Sizes and counters (qprof/detail/measure.hpp): one record each in the thread's chunk, at the
// thread's current depth, which the collector does not make a node of.
#include <qprof/detail/clock.hpp>
#include <qprof/detail/measure.hpp>
#include <qprof/detail/recorder.hpp>

#include "named_sites.hpp"

namespace qprof::detail {

namespace {

// The site of `name` when the session records `kind` there, else null.
Site* recorded_site(const ThreadState& t, const char* name, RecordKind kind, SiteKind site_kind,
                    const char* file, std::uint32_t line) {
    Site& site = named_site(name, site_kind, file, line);
    return selected(site, t.generation, kind) ? &site : nullptr;
}

}  // namespace

void write_size(ThreadState& t, const char* name, std::uint64_t bytes, const char* file,
                std::uint32_t line) {
    if (Site* site = recorded_site(t, name, RecordKind::size, SiteKind::size, file, line)) {
        if (std::uint64_t* pos = reserve_words(t, SizeRecord::kWords)) {
            SizeRecord{record_head(RecordKind::size, t.depth, site_id(*site)), bytes}.store(pos);
            publish(t, pos + SizeRecord::kWords);
        }
    }
}

void write_counter(ThreadState& t, const char* name, std::int64_t value, const char* file,
                   std::uint32_t line) {
    if (Site* site = recorded_site(t, name, RecordKind::counter, SiteKind::counter, file, line)) {
        const std::uint64_t tick = now();
        if (std::uint64_t* pos = reserve_words(t, CounterRecord::kWords)) {
            CounterRecord{record_head(RecordKind::counter, t.depth, site_id(*site)), tick, value}
                .store(pos);
            publish(t, pos + CounterRecord::kWords);
        }
    }
}

}  // namespace qprof::detail
