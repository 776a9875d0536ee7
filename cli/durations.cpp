#include "durations.hpp"

#include "advlock.hpp"
#include "duration_text.hpp"
#include "exit_codes.hpp"

namespace advlock::cli {

std::chrono::milliseconds parse_duration(const std::string &subcommand, const std::string &option,
                                         const std::string &text) {
    if (const std::optional<std::chrono::milliseconds> duration = read_duration(text)) return *duration;
    throw usage_error("advlock " + subcommand + ": --" + option + ": " + duration_refusal(text));
}

std::chrono::milliseconds parse_wait(const std::string &subcommand, const std::string &option,
                                     const std::string &text) {
    const std::chrono::milliseconds wait = parse_duration(subcommand, option, text);
    if (wait.count() > kLongestWaitMs) {
        throw usage_error("advlock " + subcommand + ": --" + option + " " + advlock::printable(text) +
                          " is longer than the longest wait, " + kLongestWaitText + "; give at most 24d");
    }
    return wait;
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
