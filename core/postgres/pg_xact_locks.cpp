#include "postgres/pg_xact_locks.hpp"
#include "postgres/pg_result.hpp"

#include <cstring>
#include <memory>
#include <string>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_borrowed_connection.hpp"
#include "postgres/pg_errors.hpp"
#include "postgres/pg_sql.hpp"

namespace advlock::core {

namespace {

const std::vector<std::string> kNoSecrets;

std::string describe(const char *doing, const Key &key, LockMode mode) {
    return std::string(doing) + " " + format_key(key) + (mode == LockMode::Shared ? " (shared)" : "");
}

// Why a transaction-scoped lock needs a transaction block.
constexpr const char *kUnlessInside = "so the lock would be released as soon as it was taken";

}  // namespace

bool xact_try_lock(PGconn *conn, const Key &key, LockMode mode) {
    const std::string doing = describe("xact_try_lock", key, mode);
    require_transaction(conn, doing, kUnlessInside);
    const PgResult result = run_borrowed(conn, sql_with_literals(LockFunction::TryXactLock, mode, key), doing);
    return result && PQntuples(result.get()) == 1 && std::strcmp(PQgetvalue(result.get(), 0, 0), "t") == 0;
}

bool xact_lock(PGconn *conn, const Key &key, LockMode mode, long long timeout_ms) {
    if (timeout_ms == 0) return xact_try_lock(conn, key, mode);
    const std::string doing = describe("xact_lock", key, mode);
    require_transaction(conn, doing, kUnlessInside);
    // The steps every driver runs (pg_sql.hpp's xact_wait_sql), here on libpq.
    const auto step = [&](XactWaitStep which, const std::string &saved = {}) {
        return xact_wait_sql(which, key, mode, timeout_ms, saved);
    };
    run_borrowed(conn, step(XactWaitStep::Savepoint), doing);
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
        run_borrowed(conn, step(XactWaitStep::RestoreTimeout, saved_timeout), doing);
        run_borrowed(conn, step(XactWaitStep::Release), doing);
        return true;
    }
    if (PQstatus(conn) == CONNECTION_BAD) throw_pg_error(conn, error.get(), doing, false, kNoSecrets);
    run_borrowed(conn, step(XactWaitStep::RollBack), doing);
    run_borrowed(conn, step(XactWaitStep::Release), doing);
    if (status_of_sqlstate(sqlstate_of(error.get())) == ADVLOCK_NOT_ACQUIRED) return false;
    throw_pg_error(conn, error.get(), doing, false, kNoSecrets);
}

}  // namespace advlock::core
