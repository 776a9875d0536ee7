#include "text/duration.hpp"

#include <cstdint>
#include <string>

#include "error.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

std::chrono::milliseconds parse_duration(std::string_view text) {
    const auto fail = [&] {
        return InvalidArgument("duration " + quoted(text) + ": give a number with a unit, such as 500ms, 30s, 10m, 2h "
                               "or 1d (a bare number is seconds)");
    };
    std::size_t digits = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == 0 || digits > 12) throw fail();
    const std::int64_t number = std::stoll(std::string(text.substr(0, digits)));
    const std::string_view unit = text.substr(digits);
    std::int64_t unit_ms;
    if (unit.empty() || unit == "s") unit_ms = 1000;
    else if (unit == "ms") unit_ms = 1;
    else if (unit == "m") unit_ms = 60 * 1000;
    else if (unit == "h") unit_ms = 3600 * 1000;
    else if (unit == "d") unit_ms = 24 * 3600 * 1000;
    else throw fail();
    if (number > 100LL * 365 * 24 * 3600 * 1000 / unit_ms) throw fail();
    return std::chrono::milliseconds(number * unit_ms);
}

}  // namespace advlock::core
