#include "postgres/pg_errors.hpp"

#include "error.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

void throw_pg_error(PGconn *conn, const PGresult *result, const std::string &doing, bool holds_locks,
                    const std::vector<std::string> &secrets) {
    const char *state_field = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    const std::string sqlstate = state_field ? state_field : "";
    std::string detail = trimmed_message(result ? PQresultErrorMessage(result) : nullptr);
    if (detail.empty()) detail = trimmed_message(PQerrorMessage(conn));
    const std::string message = redact(doing + ": " + detail, secrets);

    if (PQstatus(conn) == CONNECTION_BAD) {
        if (holds_locks) {
            throw LockLost(message + " (the connection is gone, and with it every lock this session held)",
                           sqlstate);
        }
        throw ConnectError(message + " (the connection to the server is gone)", sqlstate);
    }
    if (sqlstate == "53200") {
        throw CapacityError(message + " (the server's lock table is full: raise max_locks_per_transaction "
                                      "on the server, or hold fewer locks at once)",
                            sqlstate);
    }
    if (sqlstate == "40P01") throw Deadlock(message, sqlstate);
    if (sqlstate == "42501") {
        throw PermissionDenied(message + " (grant EXECUTE on the advisory-lock functions to this role)", sqlstate);
    }
    if (sqlstate == "57014") throw Canceled(message, sqlstate);
    throw ServerError(message, sqlstate);
}

}  // namespace advlock::core
