#include "mysql/mysql_errors.hpp"

#include <errmsg.h>
#include <mysqld_error.h>

#include "error.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {
// MySQL 8.0.24+: the server ended an idle session (wait_timeout), sent before closing.
constexpr unsigned int kClientInteractionTimeout = 4031;
}  // namespace

bool mysql_connection_gone(unsigned int error_number) {
    switch (error_number) {
        case CR_SERVER_GONE_ERROR:
        case CR_SERVER_LOST:
        case CR_SERVER_LOST_EXTENDED:
        case ER_CONNECTION_KILLED:
        case ER_SERVER_SHUTDOWN:
        case kClientInteractionTimeout: return true;
        default: return false;
    }
}

void throw_mysql_error(MYSQL *mysql, const std::string &doing, const std::vector<std::string> &secrets) {
    const unsigned int number = mysql ? mysql_errno(mysql) : 0;
    const std::string sqlstate = mysql ? mysql_sqlstate(mysql) : "";
    const std::string message =
        redact(doing + ": " + (mysql ? trimmed_message(mysql_error(mysql)) : std::string("out of memory")) +
                   " (MySQL error " + std::to_string(number) + ")",
               secrets);
    switch (number) {
        case ER_LOCK_DEADLOCK:
        case ER_USER_LOCK_DEADLOCK: throw Deadlock(message, sqlstate);
        case ER_QUERY_INTERRUPTED: throw Canceled(message, sqlstate);
        case ER_DBACCESS_DENIED_ERROR:
        case ER_SPECIFIC_ACCESS_DENIED_ERROR: throw PermissionDenied(message, sqlstate);
        case ER_USER_LOCK_WRONG_NAME: throw BadKey(message, sqlstate);
        default: break;
    }
    if (mysql_connection_gone(number) || number >= CR_MIN_ERROR) throw ConnectError(message, sqlstate);
    throw ServerError(message, sqlstate);
}

}  // namespace advlock::core
