#include "postgres/pg_url.hpp"

#include <cctype>

#include <libpq-fe.h>

#include "error.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"
#include "text/url_credentials.hpp"

namespace advlock::core {

namespace {

constexpr UrlKind kPostgresUrl{"PostgreSQL URL",
                               "leave the password out of the URL: libpq takes it from PGPASSWORD or ~/.pgpass"};

// "scheme://" at the start, as RFC 3986 spells a scheme; its length or 0.
std::size_t scheme_length(const std::string &text) {
    std::size_t i = 0;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '+' ||
                               text[i] == '-' || text[i] == '.')) {
        ++i;
    }
    const bool is_scheme = i > 0 && std::isalpha(static_cast<unsigned char>(text[0])) && text.compare(i, 3, "://") == 0;
    return is_scheme ? i : 0;
}

// libpq's message with every "quoted" part replaced by "...": libpq quotes
// keywords, values and whole URLs, any of which may hold a piece of a password
// when the string has one.
// The quoted "=" and "]" of its syntax messages say what is missing and stay.
std::string without_quoted_parts(const std::string &message) {
    std::string out;
    for (std::size_t i = 0; i < message.size(); ++i) {
        const std::size_t close = message[i] == '"' ? message.find('"', i + 1) : std::string::npos;
        if (close == std::string::npos) {
            out += message[i];
            continue;
        }
        const std::string part = message.substr(i, close + 1 - i);
        out += part == "\"=\"" || part == "\"]\"" ? part : "\"...\"";
        i = close;
    }
    return out;
}

// Whether the string may hold a password: the word (also in sslpassword; as
// a URL parameter it may be percent-encoded), or an '@' of URL credentials
// (" postgresql://u:pw@h" is no URL to libpq, which quotes it whole).
bool may_carry_a_password(const std::string &conninfo, bool url_has_password) {
    return url_has_password || ascii_lower(conninfo).find("password") != std::string::npos ||
           conninfo.find_first_of("%@") != std::string::npos;
}

}  // namespace

void check_postgres_conninfo(const std::string &conninfo) {
    bool url_has_password = false;
    if (const std::size_t length = scheme_length(conninfo)) {
        const std::string scheme = conninfo.substr(0, length);
        if (scheme != "postgresql" && scheme != "postgres") {
            throw InvalidArgument("not a PostgreSQL URL: the scheme " + quoted(scheme, 32) +
                                  " is none of postgresql:// or postgres:// (lower case, as libpq needs them), "
                                  "mysql://, mariadb://, local: or file:");
        }
        url_has_password =
            split_url_credentials(std::string_view(conninfo).substr(length + 3), kPostgresUrl).password.has_value();
    }
    char *error = nullptr;
    PQconninfoOption *options = PQconninfoParse(conninfo.c_str(), &error);
    if (options) {
        PQconninfoFree(options);
        return;
    }
    std::string message = error ? trimmed_message(error) : std::string("out of memory in libpq");
    PQfreemem(error);
    if (may_carry_a_password(conninfo, url_has_password)) message = without_quoted_parts(message);
    throw InvalidArgument("invalid PostgreSQL connection string: " + redact(message, secrets_in_conninfo(conninfo)) +
                          " (a URL postgresql://USER@HOST:PORT/DB?name=value&..., or name=value pairs separated by "
                          "spaces, a value with spaces in single quotes)");
}

}  // namespace advlock::core
