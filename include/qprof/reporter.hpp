// Reporters turn the trace into a file. Built-in ones are chosen with
// -Z profile-queries=counts,...; register your own under a name:
//
//   class TopTen : public qprof::Reporter {
//   public:
//       std::string_view name() const override { return "top10"; }
//       std::string_view description() const override { return "the ten slowest providers"; }
//       std::string_view file_suffix() const override { return "top10.txt"; }
//       void write(const qprof::Trace& trace, std::ostream& out) override;
//   };
//   QPROF_REGISTER_REPORTER(top10, TopTen);   // then: -Z profile-queries=counts,top10
#pragma once

#include <qprof/detail/require_cxx20.hpp>
#if QPROF_DETAIL_CXX20

#include <functional>
#include <memory>
#include <ostream>
#include <qprof/report_options.hpp>
#include <qprof/trace.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace qprof {

class Reporter {
  public:
    virtual ~Reporter() = default;
    // The name used in -Z profile-queries=NAME.
    virtual std::string_view name() const = 0;
    // One line shown by -Z help.
    virtual std::string_view description() const = 0;
    // The report goes to profile_queries.<file_suffix> in the output directory.
    virtual std::string_view file_suffix() const = 0;
    // Called once before write() with the session's report settings; ignore what you don't use.
    virtual void configure(const ReportOptions& options) { (void)options; }
    virtual void write(const Trace& trace, std::ostream& out) = 0;
    // Whether write() reads the threads' nodes. When no chosen reporter does, the session
    // keeps only per-provider totals and its memory stays flat however long the program runs.
    virtual bool needs_nodes() const { return true; }
};

using ReporterFactory = std::function<std::unique_ptr<Reporter>()>;

// Makes a reporter selectable by name. Throws std::invalid_argument when the name is taken
// or is not a lowercase identifier ([a-z0-9_-]+).
void register_reporter(std::string name, ReporterFactory factory);

// Every reporter that can be selected, built-in ones first.
std::vector<std::string> reporter_names();

// A new instance of the named reporter, or nullptr when there is none.
std::unique_ptr<Reporter> make_reporter(std::string_view name);

namespace detail {
template <typename T>
struct ReporterRegistration {
    explicit ReporterRegistration(const char* name) {
        register_reporter(name, [] { return std::make_unique<T>(); });
    }
};
}  // namespace detail

}  // namespace qprof

// Registers Type (a qprof::Reporter with a default constructor) as `name`. Use it in a
// source file of your program, at namespace scope.
#define QPROF_REGISTER_REPORTER(name, Type)                                                       \
    static const ::qprof::detail::ReporterRegistration<Type> qprof_reporter_registration_##name { \
#name                                                                                     \
    }

#endif  // QPROF_DETAIL_CXX20
