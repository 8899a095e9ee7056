// A profiling session: reads the -Z flags, records while it lives, writes the reports when
// it ends.
//
//   int main(int argc, char** argv) {
//       qprof::Session session{argc, argv};   // consumes -Z flags; may throw qprof::SessionError
//       if (session.help_shown()) return 0;   // -Z help printed the flags
//       ...                                   // argv now holds only the program's own arguments
//   }                                         // reports written, their paths printed to stderr
//
// Without exceptions (a program built with -fno-exceptions, or one that prefers a value):
//
//   qprof::SessionStart start = qprof::Session::from_args(argc, argv);
//   if (!start) {                              // a bad flag (start.error says which), or -Z help
//       if (!start.error.empty()) std::fprintf(stderr, "%s\n", start.error.c_str());
//       return start.help_shown ? 0 : 2;
//   }
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <memory>
#include <qprof/detail/event_selection.hpp>
#include <qprof/report_options.hpp>
#include <stdexcept>
#include <string>
#include <vector>

namespace qprof {

struct Trace;

// A session that cannot start; catch it for every reason at once. Itself: another session
// is already recording.
class SessionError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A -Z flag that is unknown or has a bad value: the message names the flag, the valid choices
// and the nearest one.
class FlagError : public SessionError {
  public:
    using SessionError::SessionError;
};

// The reports or the raw stream cannot be written where asked: the message names the file or
// directory, the reason, and the flag that chooses another place.
class OutputError : public SessionError {
  public:
    using SessionError::SessionError;
};

enum class ClockChoice {
    automatic,  // TSC where usable, otherwise steady_clock
    tsc,
    steady,
};

// -Z profile-queries-colour=REGEX:CLASS: providers and activities whose name the regular
// expression (ECMAScript) finds a match in get the class, over their sites' own.
struct ColourRule {
    std::string pattern;
    std::string colour_class;

    bool operator==(const ColourRule&) const = default;
};

struct SessionOptions {
    bool profile_queries = false;                          // -Z profile-queries
    bool record_keys = false;                              // -Z profile-queries-and-keys
    bool record_memory = false;                            // -Z profile-queries-memory
    std::vector<std::string> reporters{"counts", "html"};  // -Z profile-queries=REPORTER,...
    std::string output_dir = ".";                          // -Z profile-queries-dir=PATH
    std::string name_pattern = "profile_queries";  // -Z profile-queries-name=PATTERN (%n %p %t)
    bool inherit_flags = true;  // -Z profile-queries-inherit=no: QPROF_FLAGS leaves the environment
    ClockChoice clock = ClockChoice::automatic;  // -Z profile-clock=tsc|steady
    ReportOptions report;                        // -Z profile-queries-important=...
    EventSelection events;                       // -Z profile-queries-events=LIST
    std::vector<ColourRule> colours;  // -Z profile-queries-colour=REGEX:CLASS,...; the last wins
    bool show_help = false;           // -Z help
    // The program's argv as parse_flags found it, recorded in the run (RunInfo::argv); when
    // empty, the session reads /proc/self/cmdline.
    std::vector<std::string> command_line;
};

// Reads -Z flags from `env_flags` (the text of QPROF_FLAGS, may be null) and then from
// argv, which win. Removes the recognised flags from argv and updates argc; arguments after
// "--" are left alone. Throws FlagError.
SessionOptions parse_flags(int& argc, char** argv, const char* env_flags);

// The text printed by -Z help: every flag and every reporter, one line each.
std::string flags_help();

// Names the calling thread in the reports ("main" and "thread N" otherwise).
void name_this_thread(std::string name);

class Session;
namespace detail {
struct SessionKnobs;  // for qprof's own tests (src/testing.hpp)
}

// What Session::from_args gives back: the session, or why there is none.
struct SessionStart {
    std::unique_ptr<Session> session;  // null when the session could not start, or -Z help
    std::string error;                 // why it could not start (what SessionError would say)
    bool help_shown = false;           // -Z help: the flags were printed to stdout; end the program

    explicit operator bool() const { return session != nullptr; }
};

class Session {
  public:
    // The same as Session(argc, argv), but never throws and never exits: a bad flag comes back
    // as SessionStart::error, -Z help as SessionStart::help_shown. Usable from code built with
    // -fno-exceptions (the library itself is built with exceptions and catches them).
    static SessionStart from_args(int& argc, char** argv) noexcept;

    // Parses QPROF_FLAGS and argv (see parse_flags). With -Z help (options.show_help), prints
    // the flags to stdout and records nothing: help_shown() says so, and the caller decides
    // whether the program goes on. Throws FlagError on a bad flag, OutputError when the
    // reports cannot be written, SessionError when another session is recording.
    Session(int& argc, char** argv);
    explicit Session(SessionOptions options);
    ~Session();

    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Stops recording, completes the trace and writes the reports. Called by the
    // destructor, and at exit() if the program ends without unwinding; runs once.
    void finish();

    bool recording() const;
    // -Z help was given: the flags were printed to stdout and nothing records. A program
    // usually ends here: `if (session.help_shown()) return 0;`.
    bool help_shown() const;
    const SessionOptions& options() const;
    // The completed trace; empty until finish(). When every chosen reporter needs only
    // totals (counts, raw: see Reporter::needs_nodes), its threads hold no nodes, so that a
    // long run keeps flat memory; Trace::events still counts them.
    const Trace& trace() const;
    // The reports written by finish().
    const std::vector<std::string>& written_files() const;

  private:
    friend struct detail::SessionKnobs;
    Session(SessionOptions options, bool build_trace);

    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace qprof

#endif  // QPROF_DETAIL_CXX20
