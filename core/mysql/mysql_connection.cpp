#include "mysql/mysql_connection.hpp"

#include <cstdlib>
#include <mutex>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <mysqld_error.h>

#include "error.hpp"
#include "mysql/mysql_errors.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

// Client side, as for PostgreSQL (postgres/pg_timeouts.hpp): a call blocked on
// a silent network fails after keepalives (5 + 3 x 2 s) or 10 s of
// unacknowledged data.
constexpr int kKeepalivesIdleS = 5, kKeepalivesIntervalS = 2, kKeepalivesCount = 3;
constexpr unsigned int kTcpUserTimeoutMs = 10000;

void library_init() {
    static std::once_flag once;
    std::call_once(once, [] { mysql_library_init(0, nullptr, nullptr); });
}

void set_client_keepalives(int fd) {
    const int on = 1;
    if (::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0) return;  // a Unix socket
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &kKeepalivesIdleS, sizeof kKeepalivesIdleS);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &kKeepalivesIntervalS, sizeof kKeepalivesIntervalS);
    ::setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &kKeepalivesCount, sizeof kKeepalivesCount);
    ::setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &kTcpUserTimeoutMs, sizeof kTcpUserTimeoutMs);
}

const char *or_null(const std::string &text) { return text.empty() ? nullptr : text.c_str(); }

std::string where(const MysqlUrl &url) {
    if (!url.socket.empty()) return url.socket;
    if (url.host.empty() && url.port == 0) return "the option files' host (else localhost)";
    return (url.host.empty() ? "localhost" : url.host) + ":" + (url.port ? std::to_string(url.port) : "3306");
}

// The URL's readings of the password and the one Connector/C takes from the
// environment when neither the URL nor an option file has one.
std::vector<std::string> connection_secrets(const MysqlUrl &url) {
    std::vector<std::string> secrets = url.secrets;
    if (const char *password = std::getenv("MYSQL_PWD"); password && *password) secrets.emplace_back(password);
    return secrets;
}

// An option file may say reconnect, another character set or local-infile;
// Connector/C applies it during mysql_real_connect, after advlock's options.
// advlock's own are set again once connected: a reconnect would be a session
// holding none of the locks.
void reassert_session_options(MYSQL *mysql) {
    const my_bool no = 0;
    mysql_options(mysql, MYSQL_OPT_RECONNECT, &no);
    mysql_options(mysql, MYSQL_OPT_LOCAL_INFILE, &no);
    if (std::string_view(mysql_character_set_name(mysql)) != "utf8mb4") mysql_set_character_set(mysql, "utf8mb4");
}

}  // namespace

std::unique_ptr<MYSQL, void (*)(MYSQL *)> connect_mysql(const MysqlUrl &url, const std::string &application_name) {
    library_init();
    std::unique_ptr<MYSQL, void (*)(MYSQL *)> mysql(mysql_init(nullptr), [](MYSQL *m) { mysql_close(m); });
    if (!mysql) throw ConnectError("cannot connect to MySQL: out of memory");
    const my_bool no = 0;
    const unsigned int timeout = url.connect_timeout_s;
    mysql_options(mysql.get(), MYSQL_OPT_RECONNECT, &no);  // a new session would hold none of the locks
    mysql_options(mysql.get(), MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(mysql.get(), MYSQL_OPT_LOCAL_INFILE, &no);
    mysql_options(mysql.get(), MYSQL_SET_CHARSET_NAME, "utf8mb4");  // names beyond the BMP
    mysql_options4(mysql.get(), MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", application_name.c_str());
    // The [client] group of the option files the mysql client reads (or the
    // one file the URL names) fills in what the URL leaves out: what is given
    // to mysql_real_connect below wins, NULL and 0 let the files speak.
    if (!url.option_file.empty()) mysql_options(mysql.get(), MYSQL_READ_DEFAULT_FILE, url.option_file.c_str());
    mysql_options(mysql.get(), MYSQL_READ_DEFAULT_GROUP, "client");
    const char *password = url.password ? url.password->c_str() : nullptr;  // NULL: option file, else MYSQL_PWD
    if (!mysql_real_connect(mysql.get(), or_null(url.host), or_null(url.user), password, or_null(url.database),
                            url.port, or_null(url.socket), 0)) {
        throw ConnectError(redact("cannot connect to MySQL at " + where(url) + ": " +
                                      trimmed_message(mysql_error(mysql.get())) + " (MySQL error " +
                                      std::to_string(mysql_errno(mysql.get())) + ")",
                                  connection_secrets(url)),
                           mysql_sqlstate(mysql.get()));
    }
    reassert_session_options(mysql.get());
    return mysql;
}

MysqlConnection MysqlConnection::open(const MysqlUrl &url, const MysqlConnectOptions &options) {
    MysqlConnection connection;
    connection.url_ = url;
    connection.url_.secrets = connection_secrets(url);
    connection.application_name_ = !options.application_name.empty() ? options.application_name
                                   : !url.application_name.empty()   ? url.application_name
                                                                     : "advlock";
    connection.mysql_.reset(connect_mysql(url, connection.application_name_).release());
    set_client_keepalives(connection.socket());

    const std::string doing = "opening a MySQL lock session at " + where(url);
    // A global statement time limit (a DBA's guard against runaway queries)
    // would cut a GET_LOCK wait short; the lock session sets its own limits.
    const bool mariadb = std::string(mysql_get_server_info(connection.mysql_.get())).find("MariaDB") != std::string::npos;
    connection.query("SET SESSION wait_timeout = " + std::to_string(options.silence_limit_s) +
                         (mariadb ? ", max_statement_time = 0" : ", max_execution_time = 0"),
                     doing);
    const std::vector<MysqlRow> identity = connection.query("SELECT CONNECTION_ID(), @@global.read_only, VERSION()", doing);
    connection.connection_id_ = std::stoul(identity.at(0).at(0).value_or("0"));
    const bool read_only = identity.at(0).at(1).value_or("0") != "0";
    connection.is_mariadb_ = mariadb;

    if (read_only && !options.allow_read_only) {
        throw ReadOnlyTarget("the MySQL server at " + where(url) +
                             " is read-only (@@read_only = 1), typically a replica: its locks would exclude no job "
                             "on the primary. Point the URL at the primary, or allow_standby to accept it");
    }
    bool galera = false;
    try {
        galera = connection.query_value("SELECT @@global.wsrep_on", doing).value_or("0") != "0";
    } catch (const ServerError &) {
        // MySQL without Galera has no such variable (ER_UNKNOWN_SYSTEM_VARIABLE).
    }
    if (galera && !url.allow_cluster) {
        throw ClusterTarget("the MySQL server at " + where(url) +
                            " is a Galera cluster node (wsrep_on): GET_LOCK locks are not replicated, so a lock "
                            "taken here excludes only sessions on this same node. Point every job at one node "
                            "(and add allow_cluster=true to the URL), or use PostgreSQL");
    }
    return connection;
}

int MysqlConnection::socket() const { return mysql_ ? static_cast<int>(mysql_get_socket(mysql_.get())) : -1; }

std::string MysqlConnection::literal(std::string_view text) const {
    std::string escaped(text.size() * 2 + 1, '\0');
    const unsigned long length = mysql_real_escape_string(mysql_.get(), escaped.data(), text.data(), text.size());
    escaped.resize(length);
    return "'" + escaped + "'";
}

std::vector<MysqlRow> MysqlConnection::query(const std::string &sql, const std::string &doing) {
    MYSQL *mysql = mysql_.get();
    if (mysql_real_query(mysql, sql.data(), sql.size()) != 0) throw_mysql_error(mysql, doing, secrets());
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES *)> result(mysql_store_result(mysql), mysql_free_result);
    std::vector<MysqlRow> rows;
    if (!result) {
        if (mysql_field_count(mysql) != 0) throw_mysql_error(mysql, doing, secrets());
        return rows;  // a statement without rows
    }
    const unsigned int columns = mysql_num_fields(result.get());
    while (MYSQL_ROW row = mysql_fetch_row(result.get())) {
        const unsigned long *lengths = mysql_fetch_lengths(result.get());
        MysqlRow values;
        values.reserve(columns);
        for (unsigned int i = 0; i < columns; ++i) {
            values.push_back(row[i] ? std::optional<std::string>(std::string(row[i], lengths[i])) : std::nullopt);
        }
        rows.push_back(std::move(values));
    }
    return rows;
}

std::optional<std::string> MysqlConnection::query_value(const std::string &sql, const std::string &doing) {
    std::vector<MysqlRow> rows = query(sql, doing);
    if (rows.size() != 1 || rows[0].size() != 1) {
        throw ServerError(doing + ": expected one value from the server, got " + std::to_string(rows.size()) + " rows");
    }
    return std::move(rows[0][0]);
}

bool MysqlConnection::fetch_value(const std::string &sql, std::optional<std::string> &out) {
    MYSQL *mysql = mysql_.get();
    if (mysql_real_query(mysql, sql.data(), sql.size()) != 0) return false;
    MYSQL_RES *result = mysql_store_result(mysql);
    if (!result) return false;
    const MYSQL_ROW row = mysql_fetch_row(result);
    out.reset();
    if (row && row[0]) out.emplace(row[0], mysql_fetch_lengths(result)[0]);
    mysql_free_result(result);
    return true;
}

bool MysqlConnection::kill_running_statement() const {
    try {
        auto killer = connect_mysql(url_, application_name_ + " (cancel)");
        const std::string sql = "KILL QUERY " + std::to_string(connection_id_);
        return mysql_real_query(killer.get(), sql.data(), sql.size()) == 0;
    } catch (const Error &) {
        return false;
    }
}

}  // namespace advlock::core
