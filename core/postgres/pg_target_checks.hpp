// What advlock checks on a fresh connection before any lock is taken there,
// and the server settings it applies to the session, in one round trip.
#pragma once

#include <string>
#include <vector>

#include <libpq-fe.h>

#include "postgres/pg_connection.hpp"

namespace advlock::core {

// Throws StandbyTarget / ReadOnlyTarget / PoolerTarget unless options allow
// them, ConnectError if the check itself fails. Returns the backend pid.
// where: "user@host:port/db" for messages.
int check_target_and_configure(PGconn *conn, const PgConnectOptions &options, const std::string &where,
                               const std::vector<std::string> &secrets);

}  // namespace advlock::core
