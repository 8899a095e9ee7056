// fork() and the recorder. The child of a recording process stops recording cleanly: the
// collector thread, the other threads and the report files all stay with the parent, so the
// child records nothing of the parent's session and never writes its files (the Session
// object it inherits does nothing; see Session::finish). The child may begin its own Session.
//
// The locks the recorder takes from any thread are held across fork(), so that the child
// never inherits one locked by a thread that does not exist there. (The session that exit()
// finishes takes no lock: src/session.cpp keeps it in one atomic pointer.)
#include <pthread.h>

#include <mutex>

#include "fork_safety.hpp"

namespace qprof::detail {

namespace {

void before_fork() {
    lock_registry_for_fork();
    lock_key_tables_for_fork();
    lock_named_sites_for_fork();
    lock_sites_for_fork();
}

void after_fork_in_parent() {
    unlock_sites_after_fork();
    unlock_named_sites_after_fork();
    unlock_key_tables_after_fork();
    unlock_registry_after_fork();
}

void after_fork_in_child() {
    forget_recording_in_fork_child();
    unlock_sites_after_fork();
    unlock_named_sites_after_fork();
    unlock_key_tables_after_fork();
    unlock_registry_after_fork();
}

}  // namespace

void install_fork_handlers() {
    static std::once_flag installed;
    std::call_once(installed, [] {
        ::pthread_atfork(&before_fork, &after_fork_in_parent, &after_fork_in_child);
    });
}

}  // namespace qprof::detail
