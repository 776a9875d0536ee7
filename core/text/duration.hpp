// Durations written for people: "500ms", "30s", "10m", "2h", "1d"; a bare
// number is seconds. Used by the command line and the config file alike.
#pragma once

#include <chrono>
#include <string_view>

namespace advlock::core {

// Throws InvalidArgument for anything else (or more than 100 years).
std::chrono::milliseconds parse_duration(std::string_view text);

}  // namespace advlock::core
