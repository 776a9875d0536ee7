#include "durations.hpp"

#include <cstdint>
#include <limits>

#include "exit_codes.hpp"

namespace advlock::cli {

std::chrono::milliseconds parse_duration(const std::string &text, const std::string &option) {
    const auto fail = [&] {
        return usage_error("--" + option + " " + text + ": give a duration such as 500ms, 30s, 10m, 2h or 1d");
    };
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 12) throw fail();
    const std::int64_t number = std::stoll(text.substr(0, digits));
    const std::string unit = text.substr(digits);
    std::int64_t unit_ms;
    if (unit.empty() || unit == "s") unit_ms = 1000;
    else if (unit == "ms") unit_ms = 1;
    else if (unit == "m") unit_ms = 60 * 1000;
    else if (unit == "h") unit_ms = 3600 * 1000;
    else if (unit == "d") unit_ms = 24 * 3600 * 1000;
    else throw fail();
    return std::chrono::milliseconds(number * unit_ms);
}

std::string format_duration(std::chrono::milliseconds duration) {
    const auto ms = duration.count();
    if (ms < 1000) return std::to_string(ms) + "ms";
    const auto s = ms / 1000;
    if (s < 120) return std::to_string(s) + "s";
    if (s < 7200) return std::to_string(s / 60) + "m" + (s % 60 ? std::to_string(s % 60) + "s" : "");
    return std::to_string(s / 3600) + "h" + (s % 3600 / 60 ? std::to_string(s % 3600 / 60) + "m" : "");
}

}  // namespace advlock::cli
