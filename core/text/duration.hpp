// Durations written for people: "500ms", "30s", "10m", "2h", "1d"; a bare
// number is seconds. Used by the command line and the config file alike.
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>

namespace advlock::core {

// The longest wait for a lock: PostgreSQL's lock_timeout is an int of
// milliseconds, so 2147483647 ms (24 days 20:31:23.647) is the most it
// accepts; the C ABI (ADVLOCK_WAIT_MAX_MS) holds every backend to it.
constexpr std::int64_t kLongestWaitMs = 2147483647;
constexpr const char *kLongestWaitText =
    "2147483647ms (about 24.8 days: PostgreSQL's lock_timeout is an int of milliseconds)";

// Throws InvalidArgument for anything else (or more than 100 years).
std::chrono::milliseconds parse_duration(std::string_view text);

}  // namespace advlock::core
