// Transaction-scoped advisory locks on the caller's own connection, inside the
// caller's own transaction (field note 001): the work and the lock commit or
// roll back together, and nothing is left to release.
#pragma once

#include <libpq-fe.h>

#include "keys/key.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

// true: acquired until the transaction ends; false: held elsewhere. Throws
// Misuse when conn is not inside a healthy transaction block.
bool xact_try_lock(PGconn *conn, const Key &key, LockMode mode);

// Waits up to timeout_ms (< 0: no limit; 0: try) inside a savepoint, so a
// timeout leaves the caller's transaction usable and its lock_timeout as it was.
bool xact_lock(PGconn *conn, const Key &key, LockMode mode, long long timeout_ms);

}  // namespace advlock::core
