// What advlock checks on a fresh connection before any lock is taken there,
// and the server settings it applies to the session, in one round trip.
#pragma once

#include <string>
#include <vector>

#include <libpq-fe.h>

#include "postgres/pg_connection.hpp"
#include "postgres/pg_heartbeat.hpp"

namespace advlock::core {

// Throws StandbyTarget / ReadOnlyTarget / PoolerTarget unless options allow
// them, ConnectError if the check itself fails. Takes the session's sentinel
// lock and returns who the server is, for the heartbeat to compare against.
// where: "user@host:port/db" for messages.
ServerIdentity check_target_and_configure(PGconn *conn, const PgConnectOptions &options, const std::string &where,
                                          const std::vector<std::string> &secrets);

}  // namespace advlock::core
