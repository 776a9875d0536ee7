#include "postgres/pg_borrowed_connection.hpp"

#include <vector>

#include "error.hpp"
#include "postgres/pg_errors.hpp"

namespace advlock::core {

namespace {
const std::vector<std::string> kNoSecrets;
}  // namespace

void require_transaction(PGconn *conn, const std::string &doing, const std::string &unless_inside) {
    if (!conn) throw InvalidArgument(doing + ": the connection is NULL");
    switch (PQtransactionStatus(conn)) {
        case PQTRANS_INTRANS: return;
        case PQTRANS_IDLE:
            throw Misuse(doing + ": the connection is not inside a transaction, " + unless_inside +
                         "; BEGIN a transaction first");
        case PQTRANS_INERROR:
            throw Misuse(doing + ": the connection's transaction has already failed; roll it back first");
        case PQTRANS_ACTIVE:
            throw Misuse(doing + ": the connection is busy with another statement");
        default:
            throw ConnectError(doing + ": the connection is not usable (" +
                               std::string(PQerrorMessage(conn)) + ")");
    }
}

PgResult run_borrowed(PGconn *conn, const std::string &sql, const std::string &doing) {
    if (!PQsendQuery(conn, sql.c_str())) throw_pg_error(conn, nullptr, doing, false, kNoSecrets);
    PgResult last, error;
    while (PGresult *raw = PQgetResult(conn)) {
        PgResult result(raw);
        const ExecStatusType status = PQresultStatus(raw);
        if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
            if (!error) error = std::move(result);
        } else {
            last = std::move(result);
        }
    }
    if (error) throw_pg_error(conn, error.get(), doing, false, kNoSecrets);
    return last;
}

}  // namespace advlock::core
