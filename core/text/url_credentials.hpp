// The user name and password in scheme://USER:PASSWORD@HOST/... URLs, shared
// by the PostgreSQL pre-check and the MySQL URL parser.
//
// Parsers disagree where an unescaped '/', '?', '#' or '@' in the password
// ends it: libpq stops the credentials at the first '/' or '@', RFC 3986 at the
// first '/', '?' or '#' and the last '@', people at the last '@'. Whatever one
// reading calls the host, port or database is a piece of the password in
// another, and ends up quoted in an error message. So a URL that two readings
// split differently is refused, with a message that quotes none of it; one
// that every reading splits alike has one user name and one password.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

struct UrlCredentials {
    std::string_view user;                     // as written (percent-encoded), may be empty
    std::optional<std::string_view> password;  // as written; nullopt: no ':' in the credentials
    std::string_view location;                 // after the '@' (all of it without one): host, port, path, query
};

// How a backend's refusal names the URL and where else a password can come from.
struct UrlKind {
    const char *name;             // "PostgreSQL URL"
    const char *password_source;  // "put the password in PGPASSWORD or ~/.pgpass instead"
};

// after_scheme: the URL after "://". Throws InvalidArgument when the URL has a
// '#', more than one '@', an '@' after a '/' or '?', or credentials with a '%'
// that is not followed by two hex digits (or that encodes NUL).
UrlCredentials split_url_credentials(std::string_view after_scheme, const UrlKind &kind);

// Every password the readings above find in after_scheme, as written; lenient
// (never throws), for redaction.
std::vector<std::string_view> url_password_readings(std::string_view after_scheme);

}  // namespace advlock::core
