// Quoting input from one line of a file that may hold connection strings (the
// config file's database = ...) without showing a password, even when the line
// is not valid TOML (database = postgresql://u:PW@host/db, unquoted): the
// passwords found on the line are replaced before the quote is cut, so not
// even their first bytes remain.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace advlock::core {

// Lines longer than this are not searched for passwords (that costs more than
// linear time); input from them is not quoted at all.
constexpr std::size_t kLongestQuotedLine = 4096;

// The line (1-based) of text, without its newline; empty past the end.
std::string_view line_of(std::string_view text, int line);

// input with every password on line (as below) replaced by "********"; from a
// line longer than kLongestQuotedLine, "(N bytes, not shown)".
std::string redacted_from_line(std::string_view line, std::string_view input);

// quoted(input, max_bytes) with every password on line (secrets_in_conninfo
// of the whole line and of what follows its first '=') replaced first; input
// is a piece of line. From a line longer than kLongestQuotedLine: only its size.
std::string quoted_from_line(std::string_view line, std::string_view input, std::size_t max_bytes);

}  // namespace advlock::core
