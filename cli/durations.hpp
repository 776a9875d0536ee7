// Durations on the command line: "500ms", "30s", "10m", "2h", "1d"; a bare
// number is seconds.
#pragma once

#include <chrono>
#include <string>

namespace advlock::cli {

// Throws a usage error naming option for anything else.
std::chrono::milliseconds parse_duration(const std::string &text, const std::string &option);

std::string format_duration(std::chrono::milliseconds duration);

}  // namespace advlock::cli
