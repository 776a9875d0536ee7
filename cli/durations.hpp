// Durations on the command line: "500ms", "30s", "10m", "2h", "1d"; a bare
// number is seconds.
#pragma once

#include <chrono>
#include <string>

namespace advlock::cli {

// Throws a usage error naming the subcommand and the option for anything else
// (duration_text's words for what is wrong).
std::chrono::milliseconds parse_duration(const std::string &subcommand, const std::string &option,
                                         const std::string &text);

// A wait for a lock: a duration of at most kLongestWaitMs, the longest
// any backend accepts; refused here, before connecting, in the option's words.
std::chrono::milliseconds parse_wait(const std::string &subcommand, const std::string &option,
                                     const std::string &text);

std::string format_duration(std::chrono::milliseconds duration);

}  // namespace advlock::cli
