#include "keys/key_text.hpp"

#include <charconv>
#include <cstdint>
#include <limits>

#include "error.hpp"
#include "keys/name_schemes.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

const std::string kExpected =
    "expected a bigint such as -42, a pair such as 100:1, or name:TEXT";

bool is_decimal(std::string_view text) {
    std::string_view digits = text;
    if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
    if (digits.empty()) return false;
    for (const char c : digits) {
        if (c < '0' || c > '9') return false;
    }
    return true;
}

// A decimal integer that fits T, or a BadKey naming the range. text is known to be decimal.
template <typename T>
T parse_number(std::string_view text, std::string_view whole, const char *type_name) {
    T value{};
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range || end != text.data() + text.size()) {
        std::string message = "key " + quoted(whole) + ": " + std::string(text) + " is out of the " +
                              type_name + " range " + std::to_string(std::numeric_limits<T>::min()) +
                              ".." + std::to_string(std::numeric_limits<T>::max());
        if (std::is_same_v<T, std::int32_t>) {
            message += " (pg_locks shows classid and objid unsigned; convert such a row "
                       "with advlock_key_from_pg_locks)";
        }
        throw BadKey(message);
    }
    return value;
}

Key parse_pair(std::string_view text, std::size_t colon) {
    const std::string_view first = text.substr(0, colon);
    const std::string_view second = text.substr(colon + 1);
    const auto complain = [&](const std::string &what) {
        throw BadKey("malformed key " + quoted(text) + ": " + what +
                     " (a pair is two int4 numbers, e.g. 100:1)");
    };
    if (first.empty()) complain("the first number of the pair is missing");
    if (second.empty()) complain("the second number of the pair is missing");
    if (!is_decimal(first)) complain(quoted(first) + " is not a decimal number");
    if (!is_decimal(second)) complain(quoted(second) + " is not a decimal number");
    return Key::pair(parse_number<std::int32_t>(first, text, "int4"),
                     parse_number<std::int32_t>(second, text, "int4"));
}

}  // namespace

Key parse_key(std::string_view text) {
    if (text.empty()) throw BadKey("empty key: " + kExpected);
    if (text.substr(0, kNameKeyPrefix.size()) == kNameKeyPrefix) {
        return advlock_key_for_name(text.substr(kNameKeyPrefix.size()));
    }
    if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        return parse_pair(text, colon);
    }
    if (is_decimal(text)) return Key::bigint(parse_number<std::int64_t>(text, text, "bigint"));

    std::string message = "malformed key " + quoted(text) + ": " + kExpected;
    if (text.find_first_of(" \t\r\n") != std::string_view::npos) {
        message += "; keys contain no spaces";
    } else if (text.front() == '+') {
        message += "; write numbers without '+'";
    } else {
        message += " (did you mean " + quoted(std::string(kNameKeyPrefix) + std::string(text)) + "?)";
    }
    throw BadKey(message);
}

std::string format_key(const Key &key) {
    if (key.is_pair()) return std::to_string(key.k1()) + ":" + std::to_string(key.k2());
    return std::to_string(key.bigint_value());
}

}  // namespace advlock::core
