#include "postgres/pg_lock_set_sql.hpp"

#include "postgres/pg_sql.hpp"

namespace advlock::core {

namespace {

// The rows: one per key, in the arrays' order (ROWS FROM keeps it; the
// unqualified multi-argument unnest shorthand cannot be schema-qualified).
std::string key_rows(const std::string &bigints, const std::string &firsts, const std::string &seconds) {
    return "ROWS FROM (pg_catalog.unnest(" + bigints + "::bigint[]), pg_catalog.unnest(" + firsts +
           "::integer[]), pg_catalog.unnest(" + seconds + "::integer[])) AS t(big, k1, k2)";
}

// The function applied to the row's key, whichever space it is in (a CASE
// evaluates only the branch taken).
std::string call_on_row(LockFunction function, LockMode mode, const char *row = "t") {
    const std::string name = function_name(function, mode), r = row;
    return "CASE WHEN " + r + ".big IS NOT NULL THEN " + name + "(" + r + ".big) ELSE " + name + "(" + r + ".k1, " +
           r + ".k2) END";
}

std::string quoted(const std::string &array_text) { return "'" + array_text + "'"; }

}  // namespace

KeyArrays key_arrays(const std::vector<Key> &keys) {
    KeyArrays arrays{"{", "{", "{"};
    for (std::size_t i = 0; i < keys.size(); ++i) {
        const Key &key = keys[i];
        const char *comma = i ? "," : "";
        arrays.bigints += comma + (key.is_pair() ? std::string("NULL") : std::to_string(key.bigint_value()));
        arrays.firsts += comma + (key.is_pair() ? std::to_string(key.k1()) : std::string("NULL"));
        arrays.seconds += comma + (key.is_pair() ? std::to_string(key.k2()) : std::string("NULL"));
    }
    arrays.bigints += "}";
    arrays.firsts += "}";
    arrays.seconds += "}";
    return arrays;
}

// MATERIALIZED: each step runs once, in order. The verdict reads every tried
// row before the undo sees any, so the undo knows whether all were granted.
std::string try_all_sql(LockMode mode) {
    return "WITH tried AS MATERIALIZED (SELECT t.big, t.k1, t.k2, " + call_on_row(LockFunction::TryLock, mode) +
           " AS got FROM " + key_rows("$1", "$2", "$3") +
           "), verdict AS MATERIALIZED (SELECT COALESCE(pg_catalog.bool_and(got), true) AS all_got FROM tried), "
           "undone AS MATERIALIZED (SELECT pg_catalog.count(" +
           call_on_row(LockFunction::Unlock, mode, "u") +
           ") AS n FROM tried u, verdict v WHERE u.got AND NOT v.all_got) "
           "SELECT v.all_got FROM verdict v, undone";
}

std::string unlock_all_sql(LockMode mode) {
    return "SELECT pg_catalog.count(*) FILTER (WHERE NOT released) FROM (SELECT " +
           call_on_row(LockFunction::Unlock, mode) + " AS released FROM " + key_rows("$1", "$2", "$3") + ") AS s";
}

std::string wait_all_sql(const std::vector<Key> &keys, LockMode mode, long long timeout_ms) {
    const KeyArrays arrays = key_arrays(keys);
    const std::string timeout = timeout_ms < 0 ? "0" : std::to_string(timeout_ms) + "ms";
    return "SET LOCAL lock_timeout = '" + timeout + "'; SET LOCAL statement_timeout = 0; SELECT " +
           call_on_row(LockFunction::Lock, mode) + " FROM " +
           key_rows(quoted(arrays.bigints), quoted(arrays.firsts), quoted(arrays.seconds));
}

// pg_locks spells an advisory key as (classid, objid, objsubid): a bigint's
// high and low 32 bits with 1, a pair's two halves (as unsigned) with 2.
std::string undo_sql(const std::vector<Key> &keys, LockMode mode) {
    const KeyArrays arrays = key_arrays(keys);
    const char *pg_mode = mode == LockMode::Shared ? "'ShareLock'" : "'ExclusiveLock'";
    return "SELECT pg_catalog.count(" + call_on_row(LockFunction::Unlock, mode) + ") FROM " +
           key_rows(quoted(arrays.bigints), quoted(arrays.firsts), quoted(arrays.seconds)) +
           " WHERE EXISTS (SELECT 1 FROM pg_catalog.pg_locks l WHERE l.locktype OPERATOR(pg_catalog.=) 'advisory' "
           "AND l.pid OPERATOR(pg_catalog.=) pg_catalog.pg_backend_pid() AND l.granted "
           "AND l.mode OPERATOR(pg_catalog.=) " + pg_mode +
           " AND l.database OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_database WHERE datname "
           "OPERATOR(pg_catalog.=) pg_catalog.current_database()) "
           "AND l.classid::bigint OPERATOR(pg_catalog.=) CASE WHEN t.big IS NOT NULL "
           "THEN (t.big OPERATOR(pg_catalog.>>) 32) OPERATOR(pg_catalog.&) 4294967295 "
           "ELSE t.k1::bigint OPERATOR(pg_catalog.&) 4294967295 END "
           "AND l.objid::bigint OPERATOR(pg_catalog.=) CASE WHEN t.big IS NOT NULL "
           "THEN t.big OPERATOR(pg_catalog.&) 4294967295 ELSE t.k2::bigint OPERATOR(pg_catalog.&) 4294967295 END "
           "AND l.objsubid OPERATOR(pg_catalog.=) CASE WHEN t.big IS NOT NULL THEN 1 ELSE 2 END)";
}

}  // namespace advlock::core
