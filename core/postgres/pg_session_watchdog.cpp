// The watchdog of a PostgreSQL session (the loop: session/watch_loop.hpp).
// While idle, a server ending the session sends a FATAL (or, when another
// backend crashed, a WARNING) and closes the connection; the heartbeat
// (pg_heartbeat.hpp) catches a silent network. On a loss it records why and
// fires the lost callback once; it never reconnects: taking the lock again is
// the user's decision, on a new session.
#include <cerrno>
#include <poll.h>

#include "error.hpp"
#include "postgres/pg_loss_notices.hpp"
#include "postgres/pg_result.hpp"
#include "postgres/pg_session.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;

int milliseconds_until(Clock::time_point when) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left + 1);
}

}  // namespace

void PgSession::start_watchdog() {
    PGconn *conn = connection_.get();
    PQsetNoticeReceiver(conn, &PgSession::on_notice, this);
    PgResult prepared(
        PQprepare(conn, kHeartbeatStatement, heartbeat_sql(identity_.lock_rights_missing.empty()).c_str(), 0, nullptr));
    if (!prepared || PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
        throw ConnectError(redact("cannot prepare the session's heartbeat: " +
                                      trimmed_message(PQresultErrorMessage(prepared.get())),
                                  connection_.secrets()));
    }
    watchdog_.start([this] { watch(); });
}

void PgSession::on_notice(void *self, const PGresult *notice) {
    auto *session = static_cast<PgSession *>(self);
    if (const auto why = session_ending_notice(notice)) {
        const char *sqlstate = PQresultErrorField(notice, PG_DIAG_SQLSTATE);
        session->loss_.declare(redact(*why, session->connection_.secrets()), sqlstate ? sqlstate : "");
    }
}

void PgSession::declare_lost(const std::string &why, const std::string &sqlstate) {
    loss_.declare(redact(why, connection_.secrets()), sqlstate);
}

void PgSession::connection_failed_locked() {
    declare_lost("the connection to the server was lost: " + trimmed_message(PQerrorMessage(connection_.get())));
}

void PgSession::consume_input_locked() {
    PGconn *conn = connection_.get();
    const bool read_ok = PQconsumeInput(conn) != 0;
    // Parse what arrived even when the read also hit the end: the server's
    // FATAL message says why better than "connection closed" does.
    PQisBusy(conn);
    while (PGnotify *notify = PQnotifies(conn)) PQfreemem(notify);
    if (!read_ok || PQstatus(conn) == CONNECTION_BAD) connection_failed_locked();
}

void PgSession::heartbeat_locked() {
    PGconn *conn = connection_.get();
    if (!PQsendQueryPrepared(conn, kHeartbeatStatement, 0, nullptr, nullptr, nullptr, 0)) {
        connection_failed_locked();
        return;
    }
    const Clock::time_point deadline = Clock::now() + heartbeat_deadline_;
    while (PQisBusy(conn)) {
        if (loss_.lost()) return;  // a notice said the session ended
        if (Clock::now() >= deadline) {
            declare_lost("no answer to the heartbeat within " + std::to_string(heartbeat_deadline_.count()) +
                         " ms: the network to the server is down or the server is stuck; the server frees the "
                         "locks only once it notices the silence (about " +
                         std::to_string(silence_limit_s_) + " s)");
            return;
        }
        pollfd socket{PQsocket(conn), POLLIN, 0};
        if (::poll(&socket, 1, milliseconds_until(deadline)) < 0 && errno != EINTR) {
            connection_failed_locked();
            return;
        }
        if (!PQconsumeInput(conn)) {
            PQisBusy(conn);
            connection_failed_locked();
            return;
        }
    }
    PgResult result(PQgetResult(conn));
    while (PGresult *extra = PQgetResult(conn)) PQclear(extra);
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
        if (PQstatus(conn) == CONNECTION_BAD) {
            connection_failed_locked();
        } else if (!loss_.lost()) {
            const char *state = result ? PQresultErrorField(result.get(), PG_DIAG_SQLSTATE) : nullptr;
            const std::string sqlstate = state ? state : "";
            declare_lost(sqlstate == "26000" ? std::string(kStatementsVanished)
                                             : "the heartbeat failed: " +
                                                   trimmed_message(PQresultErrorMessage(result.get())),
                         sqlstate);
        }
        return;
    }
    if (const auto problem = heartbeat_problem(result.get(), identity_)) declare_lost(*problem);
}

void PgSession::watch() {
    WatchHooks hooks;
    hooks.socket = PQsocket(connection_.get());
    hooks.heartbeat_interval = heartbeat_interval_;
    hooks.connected = [this] { return static_cast<bool>(connection_); };
    hooks.on_readable = [this] { consume_input_locked(); };
    hooks.heartbeat = [this] { heartbeat_locked(); };
    hooks.pending = [this] { return !pending_unlocks_.empty(); };
    hooks.run_pending = [this] { run_pending_unlocks_locked(); };
    if (!run_watch_loop(watchdog_.signals(), mutex_, loss_, hooks)) {
        declare_lost("the watchdog could not wait on the connection's socket");
    }
    loss_.fire_if_pending();  // last: the callback may end the session
}

}  // namespace advlock::core
