#include "mysql/mysql_url.hpp"

#include <cstdlib>

#include "error.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"
#include "text/url_credentials.hpp"

namespace advlock::core {

namespace {

constexpr UrlKind kMysqlUrl{"MySQL URL",
                            "leave the password out of the URL: put it in the [client] group of ~/.my.cnf (or of "
                            "the file ?option_file= names), or in MYSQL_PWD"};

unsigned int parse_number(std::string_view text, const char *what, unsigned long max) {
    const std::string digits(text);
    char *end = nullptr;
    const unsigned long value = digits.empty() ? 0 : std::strtoul(digits.c_str(), &end, 10);
    if (digits.empty() || *end != '\0' || digits[0] == '-' || value == 0 || value > max) {
        throw InvalidArgument(std::string("MySQL URL: ") + what + " " + quoted(text) + " is not a number from 1 to " +
                              std::to_string(max));
    }
    return static_cast<unsigned int>(value);
}

bool parse_flag(std::string_view text, const char *what) {
    const std::string value = ascii_lower(text);
    if (value == "true" || value == "1" || value == "yes" || value == "on") return true;
    if (value == "false" || value == "0" || value == "no" || value == "off") return false;
    throw InvalidArgument(std::string("MySQL URL: ") + what + " " + quoted(text) + " is neither true nor false");
}

void apply_parameter(MysqlUrl &url, std::string_view name, const std::string &value) {
    if (name == "scope") {
        url.scope = value;
    } else if (name == "socket") {
        url.socket = value;
    } else if (name == "connect_timeout") {
        url.connect_timeout_s = parse_number(value, "connect_timeout", 3600);
    } else if (name == "allow_cluster") {
        url.allow_cluster = parse_flag(value, "allow_cluster");
    } else if (name == "application_name") {
        url.application_name = value;
    } else if (name == "option_file") {
        url.option_file = value;
    } else {
        throw InvalidArgument("MySQL URL: unknown parameter " + quoted(name) +
                              " (known: scope, socket, connect_timeout, allow_cluster, application_name, option_file)");
    }
}

}  // namespace

MysqlUrl parse_mysql_url(std::string_view text) {
    if (!is_mysql_url(text)) {
        throw InvalidArgument("not a MySQL URL: it must start with mysql:// or mariadb://");
    }
    MysqlUrl url;
    url.secrets = secrets_in_conninfo(text);
    const UrlCredentials credentials = split_url_credentials(text.substr(text.find("://") + 3), kMysqlUrl);
    url.user = percent_decode(credentials.user);
    if (credentials.password) url.password = percent_decode(*credentials.password);
    std::string_view rest = credentials.location;
    std::string_view query = rest.find('?') == std::string_view::npos ? "" : rest.substr(rest.find('?') + 1);
    rest = rest.substr(0, rest.find('?'));
    const std::string_view hostport = rest.substr(0, rest.find('/'));
    if (rest.find('/') != std::string_view::npos) url.database = percent_decode(rest.substr(rest.find('/') + 1));

    std::string_view port;
    if (!hostport.empty() && hostport.front() == '[') {  // [IPv6]:port
        const auto close = hostport.find(']');
        if (close == std::string_view::npos) throw InvalidArgument("MySQL URL: '[' without ']' around an IPv6 host");
        url.host = std::string(hostport.substr(1, close - 1));
        if (close + 1 < hostport.size() && hostport[close + 1] == ':') port = hostport.substr(close + 2);
    } else {
        const auto colon = hostport.rfind(':');
        if (colon != std::string_view::npos) port = hostport.substr(colon + 1);
        const std::string_view host = hostport.substr(0, colon);
        if (!host.empty()) url.host = percent_decode(host);
    }
    if (!port.empty()) url.port = parse_number(port, "port", 65535);

    while (!query.empty()) {
        const std::string_view pair = query.substr(0, query.find('&'));
        query.remove_prefix(std::min(query.size(), pair.size() + 1));
        if (pair.empty()) continue;
        const auto equals = pair.find('=');
        if (equals == std::string_view::npos) {
            throw InvalidArgument("MySQL URL: parameter " + quoted(pair) + " has no value (write name=value)");
        }
        apply_parameter(url, pair.substr(0, equals), percent_decode(pair.substr(equals + 1)));
    }
    return url;
}

}  // namespace advlock::core
