// The SQL advlock sends for session locks, prepared once per connection. Keys
// travel as binary parameters, so no text formatting sits on the hot path.
#pragma once

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

enum class LockCall { TryLock, Unlock };

struct PgStatement {
    const char *name;  // prepared-statement name
    const char *sql;
    int parameter_count;  // 1 (bigint) or 2 (pair)
};

// One statement per call x mode x key space; index with statement_index().
constexpr PgStatement kPgStatements[] = {
    {"advlock_try_x_b", "SELECT pg_try_advisory_lock($1::int8)", 1},
    {"advlock_try_x_p", "SELECT pg_try_advisory_lock($1::int4, $2::int4)", 2},
    {"advlock_try_s_b", "SELECT pg_try_advisory_lock_shared($1::int8)", 1},
    {"advlock_try_s_p", "SELECT pg_try_advisory_lock_shared($1::int4, $2::int4)", 2},
    {"advlock_unlock_x_b", "SELECT pg_advisory_unlock($1::int8)", 1},
    {"advlock_unlock_x_p", "SELECT pg_advisory_unlock($1::int4, $2::int4)", 2},
    {"advlock_unlock_s_b", "SELECT pg_advisory_unlock_shared($1::int8)", 1},
    {"advlock_unlock_s_p", "SELECT pg_advisory_unlock_shared($1::int4, $2::int4)", 2},
};

constexpr int kPgStatementCount = sizeof kPgStatements / sizeof kPgStatements[0];

constexpr int statement_index(LockCall call, LockMode mode, Key::Space space) {
    return (call == LockCall::Unlock ? 4 : 0) + (mode == LockMode::Shared ? 2 : 0) +
           (space == Key::Space::Pair ? 1 : 0);
}

}  // namespace advlock::core
