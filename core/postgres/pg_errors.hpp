// Turning libpq failures into the core's errors, each with the status a user
// must be able to tell apart (capacity, deadlock, permission, cancel, lost).
#pragma once

#include <string>
#include <vector>

#include <libpq-fe.h>

#include "advlock.h"

namespace advlock::core {

// Throws the Error that fits a failed result (or a NULL result) on conn.
// doing: what advlock was doing, e.g. "try_lock 100:1". holds_locks: whether a
// broken connection loses locks (LockLost) or merely fails (ConnectError).
// secrets: passwords to scrub from the server's and libpq's words.
// The outcome a server error with this SQLSTATE is, for every driver:
// ADVLOCK_NOT_ACQUIRED for 55P03 (lock_timeout ran out), ADVLOCK_EDEADLOCK
// 40P01, ADVLOCK_EPERMISSION 42501, ADVLOCK_ECANCELED 57014, ADVLOCK_ECAPACITY
// 53200, ADVLOCK_ECONNECT class 08, ADVLOCK_EFENCED 55T01 (the fence check's),
// otherwise ADVLOCK_ESERVER.
advlock_status status_of_sqlstate(const std::string &sqlstate);

[[noreturn]] void throw_pg_error(PGconn *conn, const PGresult *result, const std::string &doing,
                                 bool holds_locks, const std::vector<std::string> &secrets);

}  // namespace advlock::core
