#include "postgres/pg_heartbeat.hpp"

#include <cstdlib>
#include <cstring>

namespace advlock::core {

namespace {

const std::string kSentinel = "(" + std::to_string(kSentinelCategory) + ", pg_catalog.pg_backend_pid())";

}  // namespace

std::string take_sentinel_sql() {
    return ", pg_catalog.pg_try_advisory_lock" + kSentinel + ", pg_catalog.pg_try_advisory_lock" + kSentinel;
}

std::string heartbeat_sql(bool has_sentinel) {
    const std::string select =
        "SELECT pg_catalog.pg_backend_pid(), pg_catalog.pg_postmaster_start_time()::pg_catalog.text, ";
    if (!has_sentinel) return select + "true";
    return select + "CASE WHEN pg_catalog.pg_advisory_unlock" + kSentinel + " THEN pg_catalog.pg_try_advisory_lock" +
           kSentinel + " ELSE false END";
}

std::optional<std::string> heartbeat_problem(const PGresult *result, const ServerIdentity &expected) {
    if (PQntuples(result) != 1 || PQnfields(result) != 3) return "the heartbeat got an unexpected answer";
    const int pid = std::atoi(PQgetvalue(result, 0, 0));
    const std::string postmaster_start = PQgetvalue(result, 0, 1);
    const bool sentinel_held = std::strcmp(PQgetvalue(result, 0, 2), "t") == 0;
    if (postmaster_start != expected.postmaster_start) {
        return "the server restarted (it started at " + postmaster_start + ", not " + expected.postmaster_start +
               "), and its locks went with it";
    }
    if (pid != expected.backend_pid) {
        return "the server session changed (backend " + std::to_string(pid) + ", not " +
               std::to_string(expected.backend_pid) + "): a pooler or proxy handed this connection another one";
    }
    if (!sentinel_held) {
        return "every lock of the session was released behind advlock's back (DISCARD ALL or "
               "pg_advisory_unlock_all ran on the lock connection)";
    }
    return std::nullopt;
}

}  // namespace advlock::core
