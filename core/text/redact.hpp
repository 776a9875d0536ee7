// Keeping passwords out of messages and logs. A connection string may carry a
// password (postgresql://user:secret@host, password=secret); libpq's own
// messages can echo pieces of the string they failed to parse.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

// The secrets written in a URL or key=value connection string: raw and
// percent-decoded forms of the password. Works on malformed input too.
std::vector<std::string> secrets_in_conninfo(std::string_view conninfo);

// "%2F" and friends decoded; a '%' not followed by two hex digits stays as is.
std::string percent_decode(std::string_view text);

// message with every occurrence of every non-empty secret replaced by "********".
std::string redact(std::string message, const std::vector<std::string> &secrets);

}  // namespace advlock::core
