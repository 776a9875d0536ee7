// A MariaDB Connector/C connection owned by one advlock MySQL session: opened
// with automatic reconnection off (a reconnected session would hold none of
// the locks), client TCP keepalives, utf8mb4, and wait_timeout short enough
// that the server frees a vanished client's locks (MysqlConnectOptions::silence_limit_s);
// refused on a read-only server or a Galera node unless the caller opted in.
// mysql_reset_connection and mysql_change_user, which drop a session's locks,
// are never called on it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <mysql.h>

#include "mysql/mysql_url.hpp"
#include "session/heartbeat_settings.hpp"

namespace advlock::core {


struct MysqlConnectOptions {
    std::string application_name;  // empty: the URL's, else "advlock"
    bool allow_read_only = false;  // accept @@read_only = 1 (a replica's locks exclude no one on the primary)
    // The server ends a lock connection idle this long (SET SESSION
    // wait_timeout), which frees its locks; the watchdog's heartbeat keeps a
    // live one busy. The session's heartbeat and stop grace decide it
    // (session/heartbeat_settings.hpp), as on PostgreSQL.
    int silence_limit_s = server_silence_limit_s(HeartbeatSettings{});
};

using MysqlRow = std::vector<std::optional<std::string>>;

class MysqlConnection {
public:
    // Throws ConnectError, ReadOnlyTarget or ClusterTarget; never shows the password.
    static MysqlConnection open(const MysqlUrl &url, const MysqlConnectOptions &options);

    MysqlConnection() = default;
    MysqlConnection(MysqlConnection &&) noexcept = default;
    MysqlConnection &operator=(MysqlConnection &&) noexcept = default;
    ~MysqlConnection() = default;

    MYSQL *get() const { return mysql_.get(); }
    explicit operator bool() const { return mysql_ != nullptr; }
    void close() { mysql_.reset(); }

    int socket() const;
    unsigned long connection_id() const { return connection_id_; }
    bool is_mariadb() const { return is_mariadb_; }
    const MysqlUrl &url() const { return url_; }
    const std::vector<std::string> &secrets() const { return url_.secrets; }

    // text as a quoted SQL string literal, escaped for this connection.
    std::string literal(std::string_view text) const;

    // Run one statement and return its rows (NULL columns empty). Throws the
    // mapped error (mysql_errors.hpp); connection failures included.
    std::vector<MysqlRow> query(const std::string &sql, const std::string &doing);
    // A statement answering one row of one column: its value (nullopt: NULL).
    std::optional<std::string> query_value(const std::string &sql, const std::string &doing);
    // The same for the lock cycle, building no message: false when the
    // statement failed (mysql_errno() says why).
    bool fetch_value(const std::string &sql, std::optional<std::string> &out);

    // Interrupt the statement running on this connection (KILL QUERY, from a
    // second short-lived connection). Safe from any thread; false when the
    // second connection could not be made.
    bool kill_running_statement() const;

private:
    struct Close {
        void operator()(MYSQL *mysql) const { mysql_close(mysql); }
    };

    std::unique_ptr<MYSQL, Close> mysql_;
    MysqlUrl url_;
    std::string application_name_;
    unsigned long connection_id_ = 0;
    bool is_mariadb_ = false;
};

// A new connection with advlock's options (used by open() and the canceller).
// Throws ConnectError.
std::unique_ptr<MYSQL, void (*)(MYSQL *)> connect_mysql(const MysqlUrl &url, const std::string &application_name);

}  // namespace advlock::core
