// Keeping passwords out of messages and logs. A connection string may carry a
// password (postgresql://user:secret@host, password=secret); libpq's own
// messages can echo pieces of the string they failed to parse.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

// The secrets written in a URL or key=value connection string, raw and
// percent-decoded: the password (and sslpassword) as libpq reads it
// (PQconninfoParse) and as every other reading of url_credentials.hpp does, so
// that whatever a parser took for the password is scrubbed. Works on
// malformed input too. Ambiguous URLs are refused before they are used
// (postgres/pg_url.hpp, mysql/mysql_url.hpp), so these readings rarely differ.
std::vector<std::string> secrets_in_conninfo(std::string_view conninfo);

// "%2F" and friends decoded; a '%' not followed by two hex digits stays as is.
std::string percent_decode(std::string_view text);

// message with every occurrence of every non-empty secret replaced by "********".
std::string redact(std::string message, const std::vector<std::string> &secrets);

}  // namespace advlock::core
