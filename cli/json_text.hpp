// Text from outside (user, application and lock names from the server) made
// fit for a JSON string: JSON strings are UTF-8, and a role name in a
// SQL_ASCII database may be any bytes.
#pragma once

#include <string>
#include <string_view>

namespace advlock::cli {

// text with each byte that does not start a valid UTF-8 sequence written as
// \xNN, as advlock::printable writes it for the terminal; the rest unchanged
// (the JSON writer escapes control characters itself, so a reader gets them
// back).
std::string json_text(std::string_view text);

}  // namespace advlock::cli
