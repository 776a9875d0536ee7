#include "postgres/pg_errors.hpp"

#include "error.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

advlock_status status_of_sqlstate(const std::string &sqlstate) {
    if (sqlstate == "55P03") return ADVLOCK_NOT_ACQUIRED;
    if (sqlstate == "40P01") return ADVLOCK_EDEADLOCK;
    if (sqlstate == "42501") return ADVLOCK_EPERMISSION;
    if (sqlstate == "57014") return ADVLOCK_ECANCELED;
    if (sqlstate == "53200") return ADVLOCK_ECAPACITY;
    if (sqlstate == "55T01") return ADVLOCK_EFENCED;  // public.advlock_fence_check's RAISE (pg_fence.hpp)
    if (sqlstate.size() == 5 && sqlstate.compare(0, 2, "08") == 0) return ADVLOCK_ECONNECT;
    return ADVLOCK_ESERVER;
}

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
    switch (status_of_sqlstate(sqlstate)) {
        case ADVLOCK_ECAPACITY:
            throw CapacityError(message + " (the server's lock table is full: raise max_locks_per_transaction "
                                          "on the server, or hold fewer locks at once)",
                                sqlstate);
        case ADVLOCK_EDEADLOCK: throw Deadlock(message, sqlstate);
        case ADVLOCK_EPERMISSION:
            throw PermissionDenied(message + " (grant EXECUTE on the advisory-lock functions to this role)",
                                   sqlstate);
        case ADVLOCK_ECANCELED: throw Canceled(message, sqlstate);
        case ADVLOCK_EFENCED: throw FencedOut(message, sqlstate);
        default: throw ServerError(message, sqlstate);
    }
}

}  // namespace advlock::core
