// A libpq connection owned by one advlock session: opened with advlock's safe
// defaults, checked to reach a writable primary directly (no standby, no
// pooler) unless the caller opted in, closed on destruction, never shared.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <libpq-fe.h>

#include "session/heartbeat_settings.hpp"

#include "postgres/pg_heartbeat.hpp"

namespace advlock::core {

struct PgConnectOptions {
    // Empty: whatever the URL or PGAPPNAME says, else "advlock".
    std::string application_name;
    // Accept a hot standby or a read-only server (its locks exclude no one on the primary).
    bool allow_standby = false;
    // Accept a connection pooler between client and server (safe only in PgBouncer session mode).
    bool allow_pooler = false;
    // Seconds of silence after which the server drops the connection, and so
    // frees its locks (tcp_keepalives_*, tcp_user_timeout): the session's
    // heartbeat and stop grace decide it (session/heartbeat_settings.hpp).
    int silence_limit_s = server_silence_limit_s(HeartbeatSettings{});
};

class PgConnection {
public:
    // url: postgresql:// URL or key=value conninfo; "" uses the PG* environment.
    // Throws ConnectError, StandbyTarget, ReadOnlyTarget or PoolerTarget;
    // messages never contain the password.
    static PgConnection open(const std::string &url, const PgConnectOptions &options);

    PgConnection() = default;
    PgConnection(PgConnection &&) noexcept;
    PgConnection &operator=(PgConnection &&) noexcept;
    ~PgConnection();

    PGconn *get() const { return conn_.get(); }
    explicit operator bool() const { return conn_ != nullptr; }
    void close();

    // The server process serving this connection, and its postmaster's start.
    int backend_pid() const { return identity_.backend_pid; }
    const ServerIdentity &identity() const { return identity_; }
    // Passwords found in the URL, to be scrubbed from any later message.
    const std::vector<std::string> &secrets() const { return secrets_; }

    // Ask the server to cancel the statement running now. Safe from any thread;
    // false (with nothing done) when the connection is closed.
    bool cancel_running_statement(std::string *error);

private:
    struct Finish {
        void operator()(PGconn *conn) const { PQfinish(conn); }
    };
    struct FreeCancel {
        void operator()(PGcancel *cancel) const { PQfreeCancel(cancel); }
    };

    std::unique_ptr<PGconn, Finish> conn_;
    std::unique_ptr<PGcancel, FreeCancel> cancel_;
    std::unique_ptr<std::mutex> cancel_mutex_ = std::make_unique<std::mutex>();
    std::vector<std::string> secrets_;
    ServerIdentity identity_;
};

}  // namespace advlock::core
