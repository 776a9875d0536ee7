// Durations written for people: "500ms", "30s", "10m", "2h", "1d"; a bare
// number is seconds. Read by the command line and the config file alike; the
// library takes milliseconds and has no reason to know these words.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "advlock.h"

namespace advlock::cli {

// The longest wait for a lock any backend accepts (the C ABI's limit).
constexpr std::int64_t kLongestWaitMs = ADVLOCK_WAIT_MAX_MS;
// kLongestWaitMs in words, for messages that refuse a longer wait.
extern const char *const kLongestWaitText;

// The duration text names, or nothing for anything else (or more than 100 years).
std::optional<std::chrono::milliseconds> read_duration(std::string_view text);

// Why read_duration refused text, with the forms it takes: "duration 'soon': give ...".
std::string duration_refusal(std::string_view text);

}  // namespace advlock::cli
