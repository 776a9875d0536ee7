// The check a PostgreSQL URL or key=value string passes before libpq sees it.
// libpq's parse errors quote what they could not parse, and where it splits a
// URL differently than its writer (postgresql://u:Top/Secret@h: host "u",
// port "Top") that is a piece of the password; so such strings are refused
// here, with a message that quotes none of the credentials.
#pragma once

#include <string>

namespace advlock::core {

// Throws InvalidArgument for: a URL scheme libpq would not take for a URL
// (anything but lowercase postgresql:// or postgres://); an ambiguous URL
// (text/url_credentials.hpp); a string PQconninfoParse refuses (its message,
// with the quoted parts left out when the string carries a password).
void check_postgres_conninfo(const std::string &conninfo);

}  // namespace advlock::core
