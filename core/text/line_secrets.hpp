// Passwords on one line of a file that may hold connection strings (the
// config file's database = ...), so that a message quoting that line, or a
// key or value from it, can leave them out even when the line is not valid
// TOML (database = postgresql://u:PW@host/db, unquoted).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

// The line (1-based) of text, without its newline; empty past the end.
std::string_view line_of(std::string_view text, int line);

// secrets_in_conninfo of the whole line and of what follows its first '='
// (without the opening quote), raw and decoded.
std::vector<std::string> secrets_in_line(std::string_view line);

}  // namespace advlock::core
