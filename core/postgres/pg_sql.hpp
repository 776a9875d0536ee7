// The SQL advlock runs for advisory locks, in one place: the session's
// prepared statements, the transaction-scoped calls on a borrowed connection,
// and the text handed to other drivers (JDBC, ActiveRecord) all come from here.
#pragma once

#include <string>
#include <vector>

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

enum class LockFunction {
    TryLock,      // pg_try_advisory_lock[_shared]: boolean, never waits
    Lock,         // pg_advisory_lock[_shared]: waits (bounded by lock_timeout)
    Unlock,       // pg_advisory_unlock[_shared]: boolean, false = this session did not hold it
    TryXactLock,  // pg_try_advisory_xact_lock[_shared]: boolean, released at transaction end
    XactLock,     // pg_advisory_xact_lock[_shared]: waits
};
constexpr int kLockFunctionCount = 5;

// "pg_try_advisory_lock_shared" and so on.
std::string function_name(LockFunction function, LockMode mode);

// "pg_catalog.pg_try_advisory_lock(100, 1)": the call alone, for a statement of its own.
std::string call_with_literals(LockFunction function, LockMode mode, const Key &key);

// "SELECT pg_catalog.pg_try_advisory_lock(100, 1)": the key written as literals,
// schema-qualified so no search_path can change what runs; for any driver.
std::string sql_with_literals(LockFunction function, LockMode mode, const Key &key);

// "SELECT pg_catalog.pg_try_advisory_lock($1::integer, $2::integer)": for prepared statements.
std::string sql_with_parameters(LockFunction function, LockMode mode, Key::Space space);

// The psql expression that computes the advlock key of name (DESIGN.md §3),
// with the name as a standard string literal.
std::string name_key_sql(const std::string &name);

// Every advisory-lock function signature PostgreSQL has, as
// "pg_catalog.pg_advisory_lock(bigint)": what REVOKE and GRANT must name.
std::vector<std::string> advisory_function_signatures();

// REVOKE (grant = false) or GRANT EXECUTE on every signature, one statement a
// line, for role (quoted as an identifier; "PUBLIC" stays the keyword).
std::string privileges_sql(const std::string &role, bool grant);

// A timed wait for a transaction-scoped lock, step by step, one statement
// each, so that any driver runs the same sequence advlock runs on a borrowed
// PGconn (pg_xact_locks.cpp): Savepoint, SetTimeout (answers one row: the
// transaction's lock_timeout, to restore), Lock; then RestoreTimeout and
// Release when both succeeded, else RollBack and Release. Rolling back to the
// savepoint drops a lock granted in a race with the timeout, and the
// caller's transaction stays usable.
enum class XactWaitStep { Savepoint, SetTimeout, Lock, RestoreTimeout, Release, RollBack };
// timeout_ms < 0: no limit. saved: what SetTimeout answered (RestoreTimeout
// only); InvalidArgument unless it looks like a lock_timeout value.
std::string xact_wait_sql(XactWaitStep step, const Key &key, LockMode mode, long long timeout_ms,
                          const std::string &saved);

// Whether the function answers with a boolean (try and unlock) or waits (void).
inline bool returns_boolean(LockFunction function) {
    return function == LockFunction::TryLock || function == LockFunction::Unlock ||
           function == LockFunction::TryXactLock;
}

}  // namespace advlock::core
