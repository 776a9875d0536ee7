// MySQL / MariaDB error numbers as advlock's errors.
#pragma once

#include <string>
#include <vector>

#include <mysql.h>

namespace advlock::core {

// The connection is gone (server or network), not just one statement failed.
bool mysql_connection_gone(unsigned int error_number);

// Throws the core error for the connection's last error: Deadlock, Canceled,
// PermissionDenied, ConnectError (connection gone) or ServerError, with the
// server's message (passwords scrubbed) and SQLSTATE.
[[noreturn]] void throw_mysql_error(MYSQL *mysql, const std::string &doing, const std::vector<std::string> &secrets);

}  // namespace advlock::core
