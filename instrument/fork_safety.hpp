// What the recorder does around fork() (not installed): the child gets a recorder with no
// session and no lock held by a thread it does not have.
#pragma once

namespace qprof::detail {

// Registers the handlers with pthread_atfork, once per process.
void install_fork_handlers();

// The recorder's part of each handler (recorder.cpp, key_record.cpp, named_sites.cpp,
// site.cpp), called in this order; the unlocks in the reverse order.
void lock_registry_for_fork();
void unlock_registry_after_fork();
void forget_recording_in_fork_child();  // with the registry locked, in the child
void lock_key_tables_for_fork();        // every key type's InternedKeys too: one lock
void unlock_key_tables_after_fork();
void lock_named_sites_for_fork();  // before the sites': a named site is registered under it
void unlock_named_sites_after_fork();
void lock_sites_for_fork();
void unlock_sites_after_fork();

}  // namespace qprof::detail
