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

std::string settings_sql(int server_version) {
    namespace t = pg_timeouts;
    std::string sql;
    const auto set = [&sql](const char *name, const char *value) {
        sql += std::string(", set_config('") + name + "', '" + value + "', false)";
    };
    set("tcp_keepalives_idle", t::kServerKeepalivesIdle);
    set("tcp_keepalives_interval", t::kServerKeepalivesInterval);
    set("tcp_keepalives_count", t::kServerKeepalivesCount);
    if (server_version >= 120000) set("tcp_user_timeout", t::kServerTcpUserTimeoutMs);
    if (server_version >= 140000) set("client_connection_check_interval", t::kServerClientCheckIntervalMs);
    return sql;
}

}  // namespace

ServerIdentity check_target_and_configure(PGconn *conn, const PgConnectOptions &options, const std::string &where,
                                          const std::vector<std::string> &secrets) {
    const std::string sql = "SELECT pg_backend_pid(), pg_is_in_recovery(), current_setting('transaction_read_only'), "
                            "pg_postmaster_start_time()::text" +
                            settings_sql(PQserverVersion(conn)) + take_sentinel_sql();
    PgResult result(PQexec(conn, sql.c_str()));
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1) {
        const char *reason = result ? PQresultErrorMessage(result.get()) : PQerrorMessage(conn);
        throw ConnectError(redact("connected to " + where + " but could not check the server: " +
                                      trimmed_message(reason),
                                  secrets));
    }
    const int server_pid = std::atoi(PQgetvalue(result.get(), 0, 0));
    const bool in_recovery = std::strcmp(PQgetvalue(result.get(), 0, 1), "t") == 0;
    const bool read_only = std::strcmp(PQgetvalue(result.get(), 0, 2), "on") == 0;

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
    return ServerIdentity{server_pid, PQgetvalue(result.get(), 0, 3)};
}

}  // namespace advlock::core
