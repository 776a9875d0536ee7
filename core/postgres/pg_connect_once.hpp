// Opening one libpq connection: one attempt per listed host, each within the
// connect timeout, and libpq's notices kept off the host program's stderr from
// the first byte on.
//
// Why not PQconnectdbParams: it installs libpq's default notice processor (a
// WARNING during start-up, such as a collation version mismatch, would be
// printed on the job's stderr), and it applies connect_timeout to every
// address of a host in turn (localhost is two: 20 s instead of 10). Here the
// timeout is per listed host, as the documentation says, and a silent host
// hands over to the next listed one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <libpq-fe.h>

namespace advlock::core {

struct ConnectAttempt {
    PGconn *conn = nullptr;  // the caller's to PQfinish; null after a timeout or out of memory
    std::string timed_out;   // why, when the last host stayed silent for the timeout
};

// Keyword/value pairs in libpq's order (later entries win; "dbname" may hold a
// URL or conninfo, expanded). Unless it timed out, a failed attempt's conn has
// PQstatus CONNECTION_BAD and PQerrorMessage says why. The notice receiver is
// `receiver`, set before any byte is read.
ConnectAttempt connect_once(const std::vector<std::pair<std::string, std::string>> &parameters,
                            PQnoticeReceiver receiver);

// The hosts a conninfo or URL (and the PG* environment) names, in order; one
// entry for a single host or a Unix socket. Empty if it cannot be parsed.
std::vector<std::string> listed_hosts(const std::string &url);

}  // namespace advlock::core
