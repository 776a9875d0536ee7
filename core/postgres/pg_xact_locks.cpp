#include "postgres/pg_xact_locks.hpp"
#include "postgres/pg_result.hpp"

#include <cstring>
#include <memory>
#include <string>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_errors.hpp"
#include "postgres/pg_sql.hpp"

namespace advlock::core {

namespace {

const std::vector<std::string> kNoSecrets;

std::string describe(const char *doing, const Key &key, LockMode mode) {
    return std::string(doing) + " " + format_key(key) + (mode == LockMode::Shared ? " (shared)" : "");
}

void require_transaction(PGconn *conn, const std::string &doing) {
    if (!conn) throw InvalidArgument(doing + ": the connection is NULL");
    switch (PQtransactionStatus(conn)) {
        case PQTRANS_INTRANS: return;
        case PQTRANS_IDLE:
            throw Misuse(doing + ": the connection is not inside a transaction, so the lock would be released "
                                 "as soon as it was taken; BEGIN a transaction first");
        case PQTRANS_INERROR:
            throw Misuse(doing + ": the connection's transaction has already failed; roll it back first");
        case PQTRANS_ACTIVE:
            throw Misuse(doing + ": the connection is busy with another statement");
        default:
            throw ConnectError(doing + ": the connection is not usable (" +
                               std::string(PQerrorMessage(conn)) + ")");
    }
}

// Runs sql (one or more statements); returns the last result, throwing on error.
PgResult run(PGconn *conn, const std::string &sql, const std::string &doing) {
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

}  // namespace

bool xact_try_lock(PGconn *conn, const Key &key, LockMode mode) {
    const std::string doing = describe("xact_try_lock", key, mode);
    require_transaction(conn, doing);
    const PgResult result = run(conn, sql_with_literals(LockFunction::TryXactLock, mode, key), doing);
    return result && PQntuples(result.get()) == 1 && std::strcmp(PQgetvalue(result.get(), 0, 0), "t") == 0;
}

bool xact_lock(PGconn *conn, const Key &key, LockMode mode, long long timeout_ms) {
    if (timeout_ms == 0) return xact_try_lock(conn, key, mode);
    const std::string doing = describe("xact_lock", key, mode);
    require_transaction(conn, doing);
    // The steps every driver runs (pg_sql.hpp's xact_wait_sql), here on libpq.
    const auto step = [&](XactWaitStep which, const std::string &saved = {}) {
        return xact_wait_sql(which, key, mode, timeout_ms, saved);
    };
    run(conn, step(XactWaitStep::Savepoint), doing);
    PgResult error;
    std::string saved_timeout;
    for (const XactWaitStep which : {XactWaitStep::SetTimeout, XactWaitStep::Lock}) {
        if (!PQsendQuery(conn, step(which).c_str())) throw_pg_error(conn, nullptr, doing, false, kNoSecrets);
        while (PGresult *raw = PQgetResult(conn)) {
            PgResult result(raw);
            const ExecStatusType status = PQresultStatus(raw);
            if (status == PGRES_TUPLES_OK && which == XactWaitStep::SetTimeout && PQntuples(raw) == 1) {
                saved_timeout = PQgetvalue(raw, 0, 0);
            } else if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && !error) {
                error = std::move(result);
            }
        }
        if (error) break;
    }
    if (!error) {
        // The lock now belongs to the caller's transaction; put lock_timeout back.
        run(conn, step(XactWaitStep::RestoreTimeout, saved_timeout), doing);
        run(conn, step(XactWaitStep::Release), doing);
        return true;
    }
    if (PQstatus(conn) == CONNECTION_BAD) throw_pg_error(conn, error.get(), doing, false, kNoSecrets);
    run(conn, step(XactWaitStep::RollBack), doing);
    run(conn, step(XactWaitStep::Release), doing);
    if (status_of_sqlstate(sqlstate_of(error.get())) == ADVLOCK_NOT_ACQUIRED) return false;
    throw_pg_error(conn, error.get(), doing, false, kNoSecrets);
}

}  // namespace advlock::core
