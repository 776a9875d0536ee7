// The advlock command's exit codes: the job's own code when it ran, else one
// of these (sysexits.h values, so cron mail and scripts can tell them apart).
#pragma once

#include <stdexcept>
#include <string>

namespace advlock::cli {

namespace exit_code {
constexpr int ok = 0;
constexpr int conflict = 3;       // held elsewhere: the job did not run (--conflict-exit-code changes it)
constexpr int usage = 64;         // EX_USAGE: bad arguments
constexpr int software = 70;      // EX_SOFTWARE: a bug in advlock
constexpr int unavailable = 69;   // EX_UNAVAILABLE: cannot connect, unsafe target, server error
constexpr int lost = 75;          // EX_TEMPFAIL: the lock was lost while the job ran
constexpr int no_permission = 77; // EX_NOPERM: the role may not take advisory locks
constexpr int config = 78;        // EX_CONFIG: an invalid registry or configuration
}  // namespace exit_code

// A failure that ends the command with a given code and a one-line message.
class CliError : public std::runtime_error {
public:
    CliError(int code, const std::string &message) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

inline CliError usage_error(const std::string &message) { return CliError(exit_code::usage, message); }

}  // namespace advlock::cli
