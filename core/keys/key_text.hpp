// Keys as text: "100:1" (pair), "-42" (bigint), "name:daily_sales" (advlock
// scheme). Used by command-line options, config files and bindings alike.
#pragma once

#include <string>
#include <string_view>

#include "keys/key.hpp"

namespace advlock::core {

constexpr std::string_view kNameKeyPrefix = "name:";

// Throws BadKey with a message that says what was expected.
Key parse_key(std::string_view text);

// Canonical text ("100:1", "-42"); parse_key(format_key(k)) == k.
std::string format_key(const Key &key);

}  // namespace advlock::core
