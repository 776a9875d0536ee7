// mysql:// and mariadb:// URLs: where the lock connection goes and the
// advlock settings that only MySQL sessions have.
//
//   mysql://USER:PASSWORD@HOST:PORT/DATABASE?scope=billing&connect_timeout=10
//
// Parameters: scope (prefix of every lock name, "SCOPE:NAME", because lock
// names are server-wide), socket (a Unix socket path instead of HOST:PORT),
// connect_timeout (seconds, default 10), allow_cluster (true: accept a Galera
// node, whose locks exclude only sessions on that same node), application_name
// (the program_name connection attribute). Everything is percent-decoded.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace advlock::core {

struct MysqlUrl {
    std::string host = "localhost";
    unsigned int port = 3306;
    std::string user, password, database, socket;
    std::string scope;
    std::string application_name;
    unsigned int connect_timeout_s = 10;
    bool allow_cluster = false;
    // The password as written and decoded, to scrub from messages.
    std::vector<std::string> secrets;
};

// True for "mysql://..." and "mariadb://..." (scheme in any case).
bool is_mysql_url(std::string_view url);

// Throws InvalidArgument naming the problem (never the password).
MysqlUrl parse_mysql_url(std::string_view url);

}  // namespace advlock::core
