// Access to a throwaway MariaDB (scripts/mariadb-start.sh): the fixture's
// shared one, or a private one a test starts because it changes global state
// (read_only, wsrep_on) or freezes the server. Admin runs SQL as root over the
// server's Unix socket, to check what the server sees.
#pragma once

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>

#include <mysql.h>

namespace advlock::test {

inline std::string read_first_line(const std::string &path, const char *what) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) {
        throw std::runtime_error(std::string("no test MariaDB: ") + path + " is missing (" + what +
                                 "). Run the tests with ctest (its mariadb fixture starts one) or under "
                                 "scripts/with-mariadb.sh");
    }
    return line;
}

// $ADVLOCK_TEST_MYSQL_STATE (scripts/with-mariadb.sh sets it), else the CTest fixture's.
inline std::string mariadb_state_dir() {
    if (const char *dir = std::getenv("ADVLOCK_TEST_MYSQL_STATE")) return dir;
    return ADVLOCK_TEST_MYSQL_STATE_DEFAULT;
}

class Admin {
public:
    explicit Admin(const std::string &state = mariadb_state_dir())
        : mysql_(mysql_init(nullptr), &mysql_close) {
        const std::string socket = read_first_line(state + "/socket", "socket");
        if (!mysql_real_connect(mysql_.get(), "localhost", "root", nullptr, nullptr, 0, socket.c_str(), 0)) {
            throw std::runtime_error(std::string("admin connection failed: ") + mysql_error(mysql_.get()));
        }
    }

    // The first column of the first row (nullopt: NULL or no row).
    std::optional<std::string> value(const std::string &sql) {
        if (mysql_real_query(mysql_.get(), sql.data(), sql.size()) != 0) {
            throw std::runtime_error("admin query failed: " + sql + ": " + mysql_error(mysql_.get()));
        }
        std::unique_ptr<MYSQL_RES, decltype(&mysql_free_result)> result(mysql_store_result(mysql_.get()),
                                                                         &mysql_free_result);
        if (!result) return std::nullopt;
        MYSQL_ROW row = mysql_fetch_row(result.get());
        if (!row || !row[0]) return std::nullopt;
        return std::string(row[0]);
    }
    void run(const std::string &sql) { value(sql); }

    // The connection id holding the user lock, or "free".
    std::string holder_of(const std::string &name) {
        return value("SELECT IS_USED_LOCK('" + name + "')").value_or("free");
    }

    // Returns once the connection has left the process list. KILL only marks
    // the connection; its own server thread then frees its user locks and
    // leaves the list, so a lock is seen free only after this. No deadline:
    // a connection that never ends is a failure ctest's timeout reports.
    void wait_until_gone(const std::string &connection_id) {
        while (value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + connection_id) != "0") {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }

private:
    std::unique_ptr<MYSQL, decltype(&mysql_close)> mysql_;
};

// A MariaDB of the test's own, stopped when the object goes.
class PrivateMariadb {
public:
    explicit PrivateMariadb(const std::string &options = "") {
        char dir[] = "/tmp/advlock-mariadb-test.XXXXXX";
        state_ = mkdtemp(dir);
        // The script's output is kept so that a failure says why (it is quiet otherwise).
        const std::string log = state_ + "/start.log";
        const std::string command = std::string(ADVLOCK_SOURCE_DIR) + "/scripts/mariadb-start.sh " + state_ + " " +
                                    options + " >" + log + " 2>&1";
        if (std::system(command.c_str()) != 0) {
            std::ifstream in(log);
            const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            throw std::runtime_error("scripts/mariadb-start.sh failed:\n" + output);
        }
    }
    ~PrivateMariadb() {
        const std::string command = std::string(ADVLOCK_SOURCE_DIR) + "/scripts/mariadb-stop.sh " + state_;
        [[maybe_unused]] const int ignored = std::system(command.c_str());
    }
    PrivateMariadb(const PrivateMariadb &) = delete;
    PrivateMariadb &operator=(const PrivateMariadb &) = delete;

    const std::string &state() const { return state_; }
    std::string url() const { return read_first_line(state_ + "/url", "url"); }
    pid_t server_pid() const { return std::stoi(pid_text()); }

private:
    std::string pid_text() const {
        return read_first_line(read_first_line(state_ + "/base_dir", "base_dir") + "/mysqld.pid", "pid");
    }
    std::string state_;
};

inline std::string mariadb_url(const std::string &query = "") {
    return read_first_line(mariadb_state_dir() + "/url", "url") + query;
}

}  // namespace advlock::test
