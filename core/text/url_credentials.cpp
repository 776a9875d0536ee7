#include "text/url_credentials.hpp"

#include "error.hpp"

namespace advlock::core {

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A '%' must start %XX, and %00 would end a C string early in libpq and
// Connector/C: both read such a password differently than it was written.
bool percent_encoding_is_sound(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') continue;
        if (i + 2 >= text.size()) return false;
        if (!is_hex(text[i + 1]) || !is_hex(text[i + 2])) return false;
        if (text[i + 1] == '0' && text[i + 2] == '0') return false;
        i += 2;
    }
    return true;
}

[[noreturn]] void refuse(const UrlKind &kind, const std::string &problem) {
    throw InvalidArgument(std::string(kind.name) + ": " + problem +
                          ", so URL parsers disagree where the password ends (and advlock quotes none of it). "
                          "Percent-encode these characters in the user name, password, database and parameters: "
                          "'/' as %2F, '?' as %3F, '#' as %23, '@' as %40, '%' as %25; or " +
                          kind.password_source);
}

// The password part of USER:PASSWORD, when there is a ':'.
void add_password_of(std::vector<std::string_view> &readings, std::string_view userinfo) {
    const auto colon = userinfo.find(':');
    if (colon != std::string_view::npos && colon + 1 < userinfo.size()) readings.push_back(userinfo.substr(colon + 1));
}

}  // namespace

UrlCredentials split_url_credentials(std::string_view after_scheme, const UrlKind &kind) {
    if (after_scheme.find('#') != std::string_view::npos) {
        refuse(kind, "the URL has a '#' (libpq reads it as part of a value, other parsers as the start of a fragment)");
    }
    UrlCredentials credentials;
    credentials.location = after_scheme;
    const auto at = after_scheme.find('@');
    if (at == std::string_view::npos) return credentials;
    if (after_scheme.find_first_of("/?") < at) refuse(kind, "the URL has an '@' after a '/' or '?'");
    if (after_scheme.find('@', at + 1) != std::string_view::npos) refuse(kind, "the URL has more than one '@'");
    const std::string_view userinfo = after_scheme.substr(0, at);
    if (!percent_encoding_is_sound(userinfo)) {
        refuse(kind, "the user name or password has a '%' that is not followed by two hex digits, or is %00");
    }
    const auto colon = userinfo.find(':');
    credentials.user = userinfo.substr(0, colon);
    if (colon != std::string_view::npos) credentials.password = userinfo.substr(colon + 1);
    credentials.location = after_scheme.substr(at + 1);
    return credentials;
}

std::vector<std::string_view> url_password_readings(std::string_view after_scheme) {
    std::vector<std::string_view> readings;
    // libpq: the credentials end at the first '@', if no '/' comes before it.
    const auto first_at = after_scheme.find('@');
    if (first_at != std::string_view::npos && after_scheme.find('/') > first_at) {
        add_password_of(readings, after_scheme.substr(0, first_at));
    }
    // People, and parsers that look for the last '@' anywhere.
    const auto last_at = after_scheme.rfind('@');
    if (last_at != std::string_view::npos) add_password_of(readings, after_scheme.substr(0, last_at));
    // RFC 3986: the authority ends at the first '/', '?' or '#', its credentials at its last '@'.
    const std::string_view authority = after_scheme.substr(0, after_scheme.find_first_of("/?#"));
    const auto authority_at = authority.rfind('@');
    if (authority_at != std::string_view::npos) add_password_of(readings, authority.substr(0, authority_at));
    return readings;
}

}  // namespace advlock::core
