#include "postgres/pg_holders.hpp"
#include "postgres/pg_result.hpp"

#include <cstdlib>
#include <cstring>
#include <memory>

#include "postgres/pg_errors.hpp"
#include "postgres/pg_heartbeat.hpp"
#include "registry/registry.hpp"

namespace advlock::core {

namespace {

std::string holders_sql(int server_version, bool filtered) {
    // waitstart exists from PostgreSQL 14 on.
    const char *wait_start = server_version >= 140000
                                 ? "(extract(epoch FROM l.waitstart) * 1000000)::bigint"
                                 : "NULL::bigint";
    std::string sql =
        "SELECT l.classid::bigint, l.objid::bigint, l.objsubid, l.mode, l.granted, l.pid, "
        "a.usename, a.application_name, pg_catalog.host(a.client_addr), a.client_hostname, "
        "(extract(epoch FROM a.backend_start) * 1000000)::bigint, ";
    sql += wait_start;
    sql += ", a.pid IS NOT NULL AND a.backend_start IS NULL "
           "FROM pg_catalog.pg_locks l LEFT JOIN pg_catalog.pg_stat_activity a ON a.pid = l.pid "
           "WHERE l.locktype = 'advisory' "
           "AND l.database = (SELECT oid FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database())";
    if (filtered) sql += " AND l.classid = $1::bigint AND l.objid = $2::bigint AND l.objsubid = $3::int";
    sql += " ORDER BY l.classid, l.objid, l.objsubid, l.granted DESC, l.pid";
    return sql;
}

std::optional<std::string> text(const PGresult *result, int row, int column) {
    if (PQgetisnull(result, row, column)) return std::nullopt;
    return std::string(PQgetvalue(result, row, column));
}

long long number(const PGresult *result, int row, int column) {
    return PQgetisnull(result, row, column) ? 0 : std::atoll(PQgetvalue(result, row, column));
}

}  // namespace

std::vector<Holder> list_holders(PGconn *conn, const Registry *registry, const std::optional<Key> &only_key,
                                 int self_pid, const std::vector<std::string> &secrets) {
    const std::string sql = holders_sql(PQserverVersion(conn), only_key.has_value());
    std::string parameters[3];
    const char *values[3] = {};
    if (only_key) {
        const PgLocksKey pg = only_key->to_pg_locks();
        parameters[0] = std::to_string(pg.classid);
        parameters[1] = std::to_string(pg.objid);
        parameters[2] = std::to_string(pg.objsubid);
        for (int i = 0; i < 3; ++i) values[i] = parameters[i].c_str();
    }
    PgResult result(
        PQexecParams(conn, sql.c_str(), only_key ? 3 : 0, nullptr, values, nullptr, nullptr, 0));
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
        throw_pg_error(conn, result.get(), "holders", false, secrets);
    }

    std::vector<Holder> holders;
    const PGresult *r = result.get();
    for (int row = 0; row < PQntuples(r); ++row) {
        Holder h;
        h.key = Key::from_pg_locks({static_cast<std::uint32_t>(number(r, row, 0)),
                                    static_cast<std::uint32_t>(number(r, row, 1)),
                                    static_cast<std::int32_t>(number(r, row, 2))});
        if (is_sentinel(h.key)) continue;  // advlock's own, one per session: not a job's lock
        h.mode = std::strcmp(PQgetvalue(r, row, 3), "ShareLock") == 0 ? LockMode::Shared : LockMode::Exclusive;
        h.granted = std::strcmp(PQgetvalue(r, row, 4), "t") == 0;
        h.pid = static_cast<int>(number(r, row, 5));
        h.is_self = h.pid != 0 && h.pid == self_pid;
        h.user = text(r, row, 6);
        h.application_name = text(r, row, 7);
        h.client_addr = text(r, row, 8);
        h.client_hostname = text(r, row, 9);
        h.backend_start_unix_us = number(r, row, 10);
        h.wait_start_unix_us = number(r, row, 11);
        h.details_hidden = std::strcmp(PQgetvalue(r, row, 12), "t") == 0;
        if (registry) {
            if (const RegistryEntry *entry = registry->find_key(h.key)) h.lock_name = entry->name;
        }
        holders.push_back(std::move(h));
    }
    return holders;
}

}  // namespace advlock::core
