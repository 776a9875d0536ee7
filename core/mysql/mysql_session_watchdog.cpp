// The watchdog of a MySQL session (the loop: session/watch_loop.hpp). While
// idle, the socket becoming readable means the server ended the session:
// KILL CONNECTION closes it without a word, MySQL 8 sends an error packet for
// wait_timeout, a shutdown closes it. The heartbeat (SELECT CONNECTION_ID(),
// sent and awaited with a deadline) catches a silent network and a session
// swapped behind advlock's back. It never reconnects.
#include <cerrno>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "error.hpp"
#include "mysql/mysql_session.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;

// What an unsolicited packet says: MySQL's error packet is a 4-byte header,
// 0xFF, a 2-byte error number, '#', a 5-character SQLSTATE, then the message.
std::string unsolicited_packet_text(const unsigned char *data, std::size_t size) {
    if (size >= 13 && data[4] == 0xFF) {
        const unsigned number = data[5] | (data[6] << 8);
        return trimmed_message(std::string(reinterpret_cast<const char *>(data) + 13, size - 13).c_str()) +
               " (MySQL error " + std::to_string(number) + ")";
    }
    return "unexpected data from the server";
}

}  // namespace

void MysqlSession::start_watchdog() {
    watchdog_.start([this] { watch(); });
}

void MysqlSession::declare_lost(const std::string &why, const std::string &sqlstate) {
    loss_.declare(redact(why, connection_.secrets()), sqlstate);
}

void MysqlSession::socket_readable_locked() {
    unsigned char data[512];
    const ssize_t got = ::recv(connection_.socket(), data, sizeof data, MSG_PEEK | MSG_DONTWAIT);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got <= 0) {
        declare_lost("the MySQL server closed the connection (KILL CONNECTION, wait_timeout, a restart or a "
                     "shutdown ended the session), which released its locks");
        return;
    }
    declare_lost("the MySQL server ended the session: " + unsolicited_packet_text(data, static_cast<std::size_t>(got)));
}

void MysqlSession::heartbeat_locked() {
    MYSQL *mysql = connection_.get();
    static constexpr char kHeartbeat[] = "SELECT CONNECTION_ID()";
    if (mysql_send_query(mysql, kHeartbeat, sizeof kHeartbeat - 1) != 0) {
        declare_lost("the heartbeat could not be sent: " + trimmed_message(mysql_error(mysql)));
        return;
    }
    pollfd socket{connection_.socket(), POLLIN, 0};
    const Clock::time_point deadline = Clock::now() + heartbeat_deadline_;
    int ready = 0;
    while ((ready = ::poll(&socket, 1, static_cast<int>(heartbeat_deadline_.count()))) < 0 && errno == EINTR) {
        if (Clock::now() >= deadline) break;
    }
    if (ready <= 0) {
        declare_lost("no answer to the heartbeat within " + std::to_string(heartbeat_deadline_.count()) +
                     " ms: the network to the server is down or the server is stuck; the server frees the locks "
                     "once it notices the silence (wait_timeout, " +
                     std::to_string(silence_limit_s_) + " s)");
        // The late answer must never be read as the answer to a later call.
        ::shutdown(connection_.socket(), SHUT_RDWR);
        return;
    }
    if (mysql_read_query_result(mysql) != 0) {
        declare_lost("the heartbeat failed: " + trimmed_message(mysql_error(mysql)) + " (MySQL error " +
                     std::to_string(mysql_errno(mysql)) + ")");
        return;
    }
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES *)> result(mysql_store_result(mysql), mysql_free_result);
    MYSQL_ROW row = result ? mysql_fetch_row(result.get()) : nullptr;
    if (!row || !row[0] || std::stoul(row[0]) != connection_id_) {
        declare_lost("the lock connection is no longer the session that took the locks (connection id " +
                     std::string(row && row[0] ? row[0] : "unknown") + ", was " + std::to_string(connection_id_) +
                     "): it was reconnected behind advlock's back");
    }
}

void MysqlSession::watch() {
    WatchHooks hooks;
    hooks.socket = connection_.socket();
    hooks.heartbeat_interval = heartbeat_interval_;
    hooks.connected = [this] { return static_cast<bool>(connection_); };
    hooks.on_readable = [this] { socket_readable_locked(); };
    hooks.heartbeat = [this] { heartbeat_locked(); };
    hooks.pending = [this] { return !pending_unlocks_.empty(); };
    hooks.run_pending = [this] { run_pending_unlocks_locked(); };
    if (!run_watch_loop(watchdog_.signals(), mutex_, loss_, hooks)) {
        declare_lost("the watchdog could not wait on the connection's socket");
    }
    loss_.fire_if_pending();  // last: the callback may end the session
}

}  // namespace advlock::core
