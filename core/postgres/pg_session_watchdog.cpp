// The watchdog of a PostgreSQL session: a thread that finds out, without any
// call from the user, when the session's locks are gone.
//
//  - While the connection is idle it waits for the socket to become readable:
//    a server ending the session sends a FATAL (or, when another backend
//    crashed, a WARNING) and closes the connection; both are seen within
//    milliseconds.
//  - After heartbeat_interval without a round trip it sends the heartbeat
//    (pg_heartbeat.hpp) and declares the session lost when no answer arrives
//    within heartbeat_deadline: a silent network loss.
//  - While the user's calls are running it leaves the socket to them (they
//    see an ended session themselves) and only keeps time, so the hot path
//    pays nothing for the watchdog.
//
// On a loss it records why and fires the lost callback once; it never
// reconnects: taking the lock again is the user's decision, on a new session.
#include <cerrno>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "error.hpp"
#include "postgres/pg_loss_notices.hpp"
#include "postgres/pg_result.hpp"
#include "postgres/pg_session.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;

// After a user call, the watchdog keeps off the socket this long: a burst of
// calls then costs it one wake-up, not one per round trip. It is also the
// longest a loss right after a call waits to be noticed.
constexpr std::chrono::milliseconds kUserQuietPeriod{2};

int milliseconds_until(Clock::time_point when) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now()).count();
    return left <= 0 ? 0 : static_cast<int>(left + 1);
}

}  // namespace

void PgSession::start_watchdog() {
    PGconn *conn = connection_.get();
    PQsetNoticeReceiver(conn, &PgSession::on_notice, this);
    PgResult prepared(
        PQprepare(conn, kHeartbeatStatement, heartbeat_sql().c_str(), 0, nullptr));
    if (!prepared || PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
        throw ConnectError(redact("cannot prepare the session's heartbeat: " +
                                      trimmed_message(PQresultErrorMessage(prepared.get())),
                                  connection_.secrets()));
    }
    wake_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) throw ConnectError("cannot start the session's watchdog: eventfd failed");
    watchdog_ = std::thread([this] { watch(); });
}

void PgSession::stop_watchdog() noexcept {
    stopping_.store(true);
    if (wake_fd_ >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(wake_fd_, &one, sizeof one);
    }
    if (watchdog_.joinable()) {
        // The lost callback runs on the watchdog thread and may end the
        // session; the thread then only returns, so let it go.
        if (watchdog_.get_id() == std::this_thread::get_id()) {
            watchdog_.detach();
        } else {
            watchdog_.join();
        }
    }
    if (wake_fd_ >= 0) {
        ::close(wake_fd_);
        wake_fd_ = -1;
    }
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
                         std::to_string(pg_timeouts::kServerDropsSilentClientMs / 1000) + " s)");
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
    const int socket = PQsocket(connection_.get());
    Clock::time_point last_heartbeat = Clock::now();
    while (!stopping_.load() && !loss_.lost()) {
        const Clock::time_point last_call{Clock::duration(last_call_end_ns_.load())};
        const Clock::time_point last_proof = std::max(last_heartbeat, last_call);
        const Clock::time_point heartbeat_due = last_proof + heartbeat_interval_;
        const bool user_busy =
            calls_in_progress_.load() > 0 || Clock::now() - last_call < kUserQuietPeriod;

        pollfd watched[2] = {{wake_fd_, POLLIN, 0}, {socket, POLLIN, 0}};
        const int timeout = user_busy ? milliseconds_until(std::min(heartbeat_due, Clock::now() + kUserQuietPeriod))
                                      : milliseconds_until(heartbeat_due);
        const int ready = ::poll(watched, user_busy ? 1 : 2, timeout);
        if (ready < 0 && errno != EINTR) {
            declare_lost("the watchdog could not wait on the connection's socket");
            break;
        }
        if (watched[0].revents) {  // woken: stopping, or just re-evaluate
            std::uint64_t count;
            [[maybe_unused]] const ssize_t drained = ::read(wake_fd_, &count, sizeof count);
            continue;
        }
        if (user_busy) continue;
        const bool readable = !user_busy && watched[1].revents != 0;
        if (!readable && Clock::now() < heartbeat_due) continue;

        std::unique_lock<std::mutex> lock(mutex_);
        if (stopping_.load() || !connection_) break;
        if (readable) consume_input_locked();
        // A user call that ended meanwhile proves the connection alive too.
        const Clock::time_point call_end{Clock::duration(last_call_end_ns_.load())};
        if (!loss_.lost() && Clock::now() >= std::max(last_heartbeat, call_end) + heartbeat_interval_) {
            heartbeat_locked();
            last_heartbeat = Clock::now();
        }
    }
    loss_.fire_if_pending();  // last: the callback may end the session
}

}  // namespace advlock::core
