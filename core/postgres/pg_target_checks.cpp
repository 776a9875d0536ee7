#include "postgres/pg_target_checks.hpp"
#include "postgres/pg_result.hpp"

#include <cstring>
#include <memory>

#include "error.hpp"
#include "postgres/pg_timeouts.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

// Session settings of advlock's own connection, SET in the check's round trip
// before its SELECT runs (so a role's statement_timeout or search_path does
// not reach even that). The server keepalives make a vanished client's locks free in seconds
// (pg_timeouts.hpp). The rest undo what a role or database setting (ALTER ROLE
// ... SET) would do to a lock session: end it while it idles holding a lock
// (idle_session_timeout, idle_in_transaction_session_timeout,
// transaction_timeout), cut its waits short (statement_timeout, lock_timeout:
// a wait sets its own), or change which functions its SQL names reach
// (search_path; every name is schema-qualified as well).
std::string settings_sql(int server_version, int silence_limit_s) {
    namespace t = pg_timeouts;
    std::string sql;
    const auto set = [&sql](const char *name, const std::string &value) {
        sql += std::string("SET ") + name + " = " + value + "; ";  // numbers and names: no quoting
    };
    const t::ServerKeepalives keepalives = t::server_keepalives(silence_limit_s);
    set("search_path", "pg_catalog, pg_temp");
    set("tcp_keepalives_idle", std::to_string(keepalives.idle_s));
    set("tcp_keepalives_interval", std::to_string(keepalives.interval_s));
    set("tcp_keepalives_count", std::to_string(keepalives.count));
    if (server_version >= 120000) set("tcp_user_timeout", std::to_string(silence_limit_s * 1000LL));
    if (server_version >= 140000) set("client_connection_check_interval", t::kServerClientCheckIntervalMs);
    set("statement_timeout", "0");
    set("lock_timeout", "0");
    set("idle_in_transaction_session_timeout", "0");
    if (server_version >= 140000) set("idle_session_timeout", "0");
    if (server_version >= 170000) set("transaction_timeout", "0");
    return sql;
}

// Where default_transaction_read_only came from when the session is read-only:
// a role or database setting is a DBA's choice for that role, which advlock
// turns off on its own connection; from the server's configuration it marks a
// read-only server (see ReadOnlyTarget). Asked only when read-only (the
// subquery is evaluated lazily), since pg_settings lists every setting.
constexpr const char *kReadOnlySourceSql =
    ", CASE WHEN pg_catalog.current_setting('transaction_read_only') OPERATOR(pg_catalog.=) 'on' THEN "
    "(SELECT s.source FROM pg_catalog.pg_settings s "
    "WHERE s.name OPERATOR(pg_catalog.=) 'default_transaction_read_only') END";

bool set_by_role_or_database(const char *source) {
    const std::string s = source;
    return s == "user" || s == "database" || s == "database user";
}

std::string check_sql(PGconn *conn, int silence_limit_s, bool take_sentinel) {
    return settings_sql(PQserverVersion(conn), silence_limit_s) +
           "SELECT pg_catalog.pg_backend_pid(), pg_catalog.pg_is_in_recovery(), "
           "pg_catalog.current_setting('transaction_read_only'), "
           "pg_catalog.pg_postmaster_start_time()::pg_catalog.text" +
           kReadOnlySourceSql + (take_sentinel ? take_sentinel_sql() : "");
}

PgResult run_check(PGconn *conn, int silence_limit_s, bool take_sentinel) {
    return PgResult(PQexec(conn, check_sql(conn, silence_limit_s, take_sentinel).c_str()));
}

bool failed(const PgResult &result, ExecStatusType expected = PGRES_TUPLES_OK) {
    return !result || PQresultStatus(result.get()) != expected ||
           (expected == PGRES_TUPLES_OK && PQntuples(result.get()) != 1);
}

}  // namespace

ServerIdentity check_target_and_configure(PGconn *conn, const PgConnectOptions &options, const std::string &where,
                                          const std::vector<std::string> &secrets) {
    ServerIdentity identity;
    PgResult result = run_check(conn, options.silence_limit_s, true);
    if (failed(result) && PQstatus(conn) == CONNECTION_OK && sqlstate_of(result.get()) == "42501") {
        // EXECUTE on the advisory-lock functions revoked for this role: the
        // session cannot lock, but may still look (holders, advlock status).
        // Its lock calls say why (PermissionDenied).
        identity.lock_rights_missing =
            redact(PQuser(conn) + std::string(" may not take advisory locks on ") + where + ": " +
                       trimmed_message(PQresultErrorMessage(result.get())) +
                       ". A DBA can allow it: advlock sql grant --role " + PQuser(conn) + " | psql URL",
                   secrets);
        result = run_check(conn, options.silence_limit_s, false);
    }
    if (failed(result)) {
        const char *reason = result ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn);
        const std::string message =
            redact("connected to " + where + " but could not check the server: " + trimmed_message(reason), secrets);
        if (sqlstate_of(result.get()) == "42501") throw PermissionDenied(message, "42501");
        throw ConnectError(message, sqlstate_of(result.get()));
    }
    const PGresult *row = result.get();
    const int server_pid = std::atoi(PQgetvalue(row, 0, 0));
    const bool in_recovery = std::strcmp(PQgetvalue(row, 0, 1), "t") == 0;
    const bool read_only_by_role = !PQgetisnull(row, 0, 4) && set_by_role_or_database(PQgetvalue(row, 0, 4));
    const bool read_only = std::strcmp(PQgetvalue(row, 0, 2), "on") == 0 && !read_only_by_role;
    if (identity.lock_rights_missing.empty()) {
        const int fields = PQnfields(row);
        if (std::strcmp(PQgetvalue(row, 0, fields - 1), "t") != 0 ||
            std::strcmp(PQgetvalue(row, 0, fields - 2), "t") != 0) {
            throw ConnectError("connected to " + where + " but another session holds advlock's sentinel lock (" +
                               std::to_string(kSentinelCategory) + ", " + std::to_string(server_pid) +
                               ") meant for this one: someone squats advlock's reserved key category; "
                               "see who in pg_locks");
        }
    }
    if (read_only_by_role) {
        // Later transactions of this session are read-write again; this one
        // (the check) already began read-only.
        PgResult fixed(PQexec(conn, "SET default_transaction_read_only = off"));
        if (failed(fixed, PGRES_COMMAND_OK)) {
            throw ConnectError(redact("connected to " + where + " but could not turn default_transaction_read_only "
                                      "off: " + trimmed_message(PQresultErrorMessage(fixed.get())), secrets));
        }
    }
    if (!options.allow_pooler && server_pid != PQbackendPID(conn)) {
        throw PoolerTarget(
            where + " is reached through a connection pooler: the server process is " + std::to_string(server_pid) +
            " but the connection announced " + std::to_string(PQbackendPID(conn)) +
            ". A pooler in transaction or statement mode hands the server session, and its advisory locks, "
            "to other clients. Connect to PostgreSQL directly (or, for PgBouncer in session mode only, "
            "set allow_pooler).");
    }
    if (!options.allow_standby && in_recovery) {
        throw StandbyTarget(where + " is a hot standby (pg_is_in_recovery() is true): advisory locks taken there "
                                    "exclude only sessions on that standby, not jobs on the primary. Connect to "
                                    "the primary (list every host in the URL; advlock picks the writable one), or "
                                    "set allow_standby if that is really intended.");
    }
    if (!options.allow_standby && read_only) {
        throw ReadOnlyTarget(where + " gives a read-only session (transaction_read_only is on): it is not the "
                                     "writable primary the other jobs lock on. Connect to the primary, or set "
                                     "allow_standby if that is really intended.");
    }
    identity.backend_pid = server_pid;
    identity.postmaster_start = PQgetvalue(row, 0, 3);
    return identity;
}

}  // namespace advlock::core
