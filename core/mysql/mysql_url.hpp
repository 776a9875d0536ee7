// mysql:// and mariadb:// URLs: where the lock connection goes and the
// advlock settings that only MySQL sessions have.
//
//   mysql://USER:PASSWORD@HOST:PORT/DATABASE?scope=billing&connect_timeout=10
//
// Parameters: scope (prefix of every lock name, "SCOPE:NAME", because lock
// names are server-wide), socket (a Unix socket path instead of HOST:PORT),
// connect_timeout (seconds, default 10), allow_cluster (true: accept a Galera
// node, whose locks exclude only sessions on that same node), application_name
// (the program_name connection attribute), option_file (read only this MySQL
// option file, not the default ones). Everything is percent-decoded.
//
// What the URL leaves out (user, password, host, port, database, socket)
// comes from the [client] group of the MySQL option files, as the mysql client
// reads them (/etc/my.cnf, /etc/mysql/my.cnf, ~/.my.cnf; Connector/C reads
// them when asked), and a missing password from MYSQL_PWD (Connector/C), so a
// password need not be on the command line. Ambiguous credentials are refused
// as for PostgreSQL (text/url_credentials.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/database_url.hpp"  // is_mysql_url

namespace advlock::core {

struct MysqlUrl {
    std::string host;       // empty: the option files' host, else localhost
    unsigned int port = 0;  // 0: the option files' port, else 3306
    std::string user, database, socket;
    std::optional<std::string> password;  // nullopt: the option files', else MYSQL_PWD
    std::string option_file;              // empty: the default option files
    std::string scope;
    std::string application_name;
    unsigned int connect_timeout_s = 10;
    bool allow_cluster = false;
    // The password as written and decoded, to scrub from messages.
    std::vector<std::string> secrets;
};

// Throws InvalidArgument naming the problem (never the password).
MysqlUrl parse_mysql_url(std::string_view url);

}  // namespace advlock::core
