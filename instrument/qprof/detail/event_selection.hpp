// Which events a session records (-Z profile-queries-events): every kind of every provider by
// default; the user may leave out hits, activities, waits or loads, leave out providers by name,
// and keep keys for some providers only.
//
//   EventSelection events;
//   events.hits = false;                      // -Z profile-queries-events=-hits
//   events.excluded.push_back("def_span");    // ...,-def_span
//   events.left_out(keys_recorded)            // "hits; providers def_span": what reports state
//
// The hot path asks each site once per session what it records (select_site, recorder.hpp),
// so a kind left out costs one predictable branch and writes no record.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace qprof {

struct EventSelection {
    bool hits = true;
    bool activities = true;
    bool waits = true;  // blocked scopes: a Query waiting for another thread, PROFILE_WAIT
    bool loads = true;
    bool sizes = true;                       // qprof::record_size
    bool counters = true;                    // qprof::counter
    std::vector<std::string> excluded;       // providers and activities not recorded at all
    std::vector<std::string> key_providers;  // keys of these only; empty: of every provider

    // Whether a provider (or activity) of this name is recorded at all.
    bool records(std::string_view provider) const;
    // Whether its keys are, when the session records keys.
    bool records_keys_of(std::string_view provider) const;
    // Nothing is left out: the default.
    bool everything() const;
    // What was left out, as every report states it ("hits, loads; providers def_span; keys
    // only of type_of, typeck"); empty when nothing was. Keys count only when recorded.
    std::string left_out(bool keys_recorded) const;
    // Where several runs are merged: what any of them left out.
    void add_left_out(const EventSelection& other);

    friend bool operator==(const EventSelection&, const EventSelection&) = default;
};

}  // namespace qprof
