#include "durations.hpp"

#include "advlock.hpp"
#include "exit_codes.hpp"

namespace advlock::cli {

std::chrono::milliseconds parse_duration(const std::string &text, const std::string &option) {
    try {
        return std::chrono::milliseconds(advlock::parse_duration_ms(text));
    } catch (const advlock::error &e) {
        throw usage_error("--" + option + " " + text + ": give a duration such as 500ms, 30s, 10m, 2h or 1d");
    }
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
