#include "text/redact.hpp"

#include <algorithm>

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

void add_secret(std::vector<std::string> &secrets, std::string_view raw) {
    if (raw.empty()) return;
    secrets.emplace_back(raw);
    std::string decoded = percent_decode(raw);
    if (decoded != raw && !decoded.empty()) secrets.push_back(std::move(decoded));
}

// postgresql://user:PASSWORD@host/... and ?password=PASSWORD
void add_url_secrets(std::vector<std::string> &secrets, std::string_view url) {
    const auto scheme_end = url.find("://");
    if (scheme_end == std::string_view::npos) return;
    const std::string_view rest = url.substr(scheme_end + 3);
    const std::string_view authority = rest.substr(0, rest.find_first_of("/?"));
    const auto at = authority.rfind('@');
    if (at != std::string_view::npos) {
        const std::string_view userinfo = authority.substr(0, at);
        const auto colon = userinfo.find(':');
        if (colon != std::string_view::npos) add_secret(secrets, userinfo.substr(colon + 1));
    }
    for (std::size_t pos = rest.find("password="); pos != std::string_view::npos;
         pos = rest.find("password=", pos + 1)) {
        const std::string_view value = rest.substr(pos + 9);
        add_secret(secrets, value.substr(0, value.find('&')));
    }
}

// password=PASSWORD or password = 'PASS WORD' in a key=value string
void add_keyword_secrets(std::vector<std::string> &secrets, std::string_view conninfo) {
    for (std::size_t pos = conninfo.find("password"); pos != std::string_view::npos;
         pos = conninfo.find("password", pos + 1)) {
        std::size_t i = pos + 8;
        while (i < conninfo.size() && (conninfo[i] == ' ' || conninfo[i] == '\t')) ++i;
        if (i >= conninfo.size() || conninfo[i] != '=') continue;
        ++i;
        while (i < conninfo.size() && (conninfo[i] == ' ' || conninfo[i] == '\t')) ++i;
        std::string value;
        if (i < conninfo.size() && conninfo[i] == '\'') {
            for (++i; i < conninfo.size() && conninfo[i] != '\''; ++i) {
                if (conninfo[i] == '\\' && i + 1 < conninfo.size()) ++i;
                value += conninfo[i];
            }
        } else {
            for (; i < conninfo.size() && conninfo[i] != ' ' && conninfo[i] != '\t'; ++i) value += conninfo[i];
        }
        add_secret(secrets, value);
    }
}

}  // namespace

std::vector<std::string> secrets_in_conninfo(std::string_view conninfo) {
    std::vector<std::string> secrets;
    add_url_secrets(secrets, conninfo);
    add_keyword_secrets(secrets, conninfo);
    // Longest first, so a secret that contains another is replaced whole.
    std::sort(secrets.begin(), secrets.end(),
              [](const std::string &a, const std::string &b) { return a.size() > b.size(); });
    return secrets;
}

std::string redact(std::string message, const std::vector<std::string> &secrets) {
    for (const std::string &secret : secrets) {
        if (secret.empty()) continue;
        for (std::size_t pos = message.find(secret); pos != std::string::npos;
             pos = message.find(secret, pos + 8)) {
            message.replace(pos, secret.size(), "********");
        }
    }
    return message;
}

}  // namespace advlock::core
