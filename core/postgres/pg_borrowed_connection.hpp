// A libpq connection the caller lent for one call (transaction-scoped locks,
// the fence check): statements run inside the caller's own transaction, and
// nothing of advlock's stays on it afterwards.
#pragma once

#include <string>

#include <libpq-fe.h>

#include "postgres/pg_result.hpp"

namespace advlock::core {

// Throws Misuse unless conn is inside a healthy transaction block (doing: what
// is being done; unless_inside: why outside one it would be wrong, e.g. "so
// the lock would be released as soon as it was taken"), InvalidArgument for
// NULL, ConnectError for a broken connection.
void require_transaction(PGconn *conn, const std::string &doing, const std::string &unless_inside);

// Runs sql (one or more statements); returns the last result, throwing the
// first error as throw_pg_error does (no secrets: the caller's connection).
PgResult run_borrowed(PGconn *conn, const std::string &sql, const std::string &doing);

}  // namespace advlock::core
