// Fuzz the MySQL URL parser (issue 17).
//
// First byte even: the rest is a URL as is; parse_mysql_url may refuse it only
// with InvalidArgument, and a parsed URL's password (decoded) must be among
// the secrets its messages are scrubbed of. First byte odd: a mysql:// URL
// with a marked password (marked_password.hpp) in its credentials among ASCII
// pieces; neither the parser's refusal nor Connector/C's error for a socket
// that does not exist (offline, at once; no option files read) may show a
// marker once redacted.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "error.hpp"
#include "marked_password.hpp"
#include "mysql/mysql_connection.hpp"
#include "mysql/mysql_url.hpp"

using namespace advlock::core;
using advlock::fuzz::Choices;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    Choices choices(data + 1, size - 1);
    const bool marked = data[0] & 1;
    std::string text;
    if (marked) {
        const std::string user = advlock::fuzz::ascii_atoms(choices, 3);
        const std::string password = advlock::fuzz::marked_password(choices);
        const std::string at = choices.below(4) ? "@" : "";
        const std::string after = advlock::fuzz::ascii_atoms(choices, 6);
        // Without an '@' after it no reading takes it for a password (it is a port).
        if ((at + after).find('@') == std::string::npos) return 0;
        text = (choices.below(2) ? "mysql://" : "mariadb://") + user + ":" + password + at + after;
    } else {
        text.assign(reinterpret_cast<const char *>(data + 1), size - 1);
    }
    MysqlUrl url;
    try {
        url = parse_mysql_url(text);
    } catch (const InvalidArgument &e) {
        if (marked) advlock::fuzz::expect_no_marker(text, "parser", e.what());
        return 0;
    }
    if (url.password && !url.password->empty() &&
        std::find(url.secrets.begin(), url.secrets.end(), *url.password) == url.secrets.end()) {
        std::abort();
    }
    if (!marked || url.password.value_or("").find('\0') != std::string::npos) return 0;
    url.host = "localhost";
    url.socket = "/nonexistent-advlock-fuzz/mysqld.sock";
    url.option_file = "/dev/null";
    try {
        connect_mysql(url, "advlock-fuzz");
        std::abort();  // nothing listens there
    } catch (const ConnectError &e) {
        advlock::fuzz::expect_no_marker(text, "Connector/C, redacted", e.what());
    }
    return 0;
}
