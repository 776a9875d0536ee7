#include "duration_text.hpp"

#include "text/message_text.hpp"

namespace advlock::cli {

const char *const kLongestWaitText =
    "2147483647ms (about 24.8 days: PostgreSQL's lock_timeout is an int of milliseconds)";
static_assert(kLongestWaitMs == 2147483647, "kLongestWaitText restates ADVLOCK_WAIT_MAX_MS");

std::optional<std::chrono::milliseconds> read_duration(std::string_view text) {
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    // 15 digits bound the number before it is converted (no overflow below),
    // and hold every duration up to the 100-year limit in milliseconds too:
    // with 12, "2047474744" (seconds) was accepted but its own value in ms,
    // "2047474744000ms", refused (found by fuzz_duration).
    if (digits == 0 || digits > 15) return std::nullopt;
    const std::int64_t number = std::stoll(std::string(text.substr(0, digits)));
    const std::string_view unit = text.substr(digits);
    std::int64_t unit_ms;
    if (unit.empty() || unit == "s") unit_ms = 1000;
    else if (unit == "ms") unit_ms = 1;
    else if (unit == "m") unit_ms = 60 * 1000;
    else if (unit == "h") unit_ms = 3600 * 1000;
    else if (unit == "d") unit_ms = 24 * 3600 * 1000;
    else return std::nullopt;
    if (number > 100LL * 365 * 24 * 3600 * 1000 / unit_ms) return std::nullopt;
    return std::chrono::milliseconds(number * unit_ms);
}

std::string duration_refusal(std::string_view text) {
    return "duration " + core::quoted(text) +
           ": give a number with a unit, such as 500ms, 30s, 10m, 2h or 1d (a bare number is seconds)";
}

}  // namespace advlock::cli
