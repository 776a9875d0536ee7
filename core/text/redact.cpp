#include "text/redact.hpp"

#include <algorithm>
#include <cctype>

#include <libpq-fe.h>

#include "error.hpp"
#include "text/url_credentials.hpp"

namespace advlock::core {

std::string percent_decode(std::string_view text) {
    std::string out;
    const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
            out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

namespace {

// Where libpq and others cut a URL into host, port, database and parameters.
constexpr const char *kDelimiters = "/?#@,:&=";

void add_secret(std::vector<std::string> &secrets, std::string_view raw) {
    if (raw.empty()) return;
    secrets.emplace_back(raw);
    std::string decoded = percent_decode(raw);
    if (decoded != raw && !decoded.empty()) secrets.push_back(std::move(decoded));
}

// scheme://user:PASSWORD@host/..., wherever a URL starts (also inside a
// key=value string), in every reading of url_credentials.hpp.
void add_url_secrets(std::vector<std::string> &secrets, std::string_view conninfo) {
    for (auto pos = conninfo.find("://"); pos != std::string_view::npos; pos = conninfo.find("://", pos + 3)) {
        for (const std::string_view password : url_password_readings(conninfo.substr(pos + 3))) {
            add_secret(secrets, password);
            // Where readings disagree, a parser takes pieces of this password
            // for a host, port or database and names them: each piece is secret.
            if (password.find_first_of("/?#@") == std::string_view::npos) continue;
            for (std::string_view rest = password; !rest.empty();) {
                const std::string_view piece = rest.substr(0, rest.find_first_of(kDelimiters));
                add_secret(secrets, piece);
                rest.remove_prefix(std::min(rest.size(), piece.size() + 1));
            }
        }
    }
}

// password=... and sslpassword=... as a URL parameter (up to '&', or '&' and
// '#') and as libpq's key=value reads it: 'quoted' or up to white space,
// backslash escaping the next character in both.
void add_keyword_secrets(std::vector<std::string> &secrets, std::string_view conninfo) {
    for (std::size_t pos = conninfo.find("password"); pos != std::string_view::npos;
         pos = conninfo.find("password", pos + 1)) {
        std::size_t i = pos + 8;
        while (i < conninfo.size() && std::isspace(static_cast<unsigned char>(conninfo[i]))) ++i;
        if (i >= conninfo.size() || conninfo[i] != '=') continue;
        const std::string_view parameter = conninfo.substr(i + 1);
        add_secret(secrets, parameter.substr(0, parameter.find('&')));
        add_secret(secrets, parameter.substr(0, parameter.find_first_of("&#")));
        ++i;
        while (i < conninfo.size() && std::isspace(static_cast<unsigned char>(conninfo[i]))) ++i;
        const bool quoted = i < conninfo.size() && conninfo[i] == '\'';
        std::string value;
        for (i += quoted ? 1 : 0; i < conninfo.size(); ++i) {
            const char c = conninfo[i];
            if (quoted ? c == '\'' : std::isspace(static_cast<unsigned char>(c)) != 0) break;
            if (c == '\\' && i + 1 < conninfo.size()) ++i;
            value += conninfo[i];
        }
        add_secret(secrets, value);
    }
}

// What libpq itself takes for the password (and the SSL key's passphrase),
// URL or key=value: the reading that matters most, when libpq can parse it.
// A host without libpq (libadvlock.so loads it on demand, client_libraries/)
// has the other two readings: no PostgreSQL session can use the URL there.
void add_libpq_secrets(std::vector<std::string> &secrets, const std::string &conninfo) {
    char *error = nullptr;
    PQconninfoOption *options = nullptr;
    try {
        options = PQconninfoParse(conninfo.c_str(), &error);
    } catch (const Unsupported &) {
        return;
    }
    PQfreemem(error);
    if (!options) return;
    for (const PQconninfoOption *option = options; option->keyword; ++option) {
        const std::string_view keyword = option->keyword;
        if (option->val && (keyword == "password" || keyword == "sslpassword")) add_secret(secrets, option->val);
    }
    PQconninfoFree(options);
}

}  // namespace

std::vector<std::string> secrets_in_conninfo(std::string_view conninfo) {
    std::vector<std::string> secrets;
    add_url_secrets(secrets, conninfo);
    add_keyword_secrets(secrets, conninfo);
    add_libpq_secrets(secrets, std::string(conninfo));
    // Longest first, so a secret that contains another is replaced whole.
    std::sort(secrets.begin(), secrets.end(),
              [](const std::string &a, const std::string &b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
    secrets.erase(std::unique(secrets.begin(), secrets.end()), secrets.end());
    return secrets;
}

std::string redact(std::string message, const std::vector<std::string> &secrets) {
    // One pass over the message, the longest secret matching at each place
    // first: what was put in ("********") is never searched again, so a
    // password of asterisks, or one listed twice, cannot make it grow.
    std::string out;
    out.reserve(message.size());
    for (std::size_t pos = 0; pos < message.size();) {
        std::size_t longest = 0;
        for (const std::string &secret : secrets) {
            if (secret.size() > longest && message.compare(pos, secret.size(), secret) == 0) longest = secret.size();
        }
        if (longest > 0) {
            out += "********";
            pos += longest;
        } else {
            out += message[pos++];
        }
    }
    return out;
}

}  // namespace advlock::core
