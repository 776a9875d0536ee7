// The longest wait the library accepts, shared by the C ABI's checks and the
// backends. (Durations written for people, "30s", are the command's: cli/.)
#pragma once

#include <cstdint>

namespace advlock::core {

// The longest wait for a lock: PostgreSQL's lock_timeout is an int of
// milliseconds, so 2147483647 ms (24 days 20:31:23.647) is the most it
// accepts; the C ABI (ADVLOCK_WAIT_MAX_MS) holds every backend to it.
constexpr std::int64_t kLongestWaitMs = 2147483647;
constexpr const char *kLongestWaitText =
    "2147483647ms (about 24.8 days: PostgreSQL's lock_timeout is an int of milliseconds)";

}  // namespace advlock::core
