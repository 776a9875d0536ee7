// A server of its own for a test that needs one (a standby, a PgBouncer, a
// server with special settings): started by a script in scripts/ into a fresh
// state directory, stopped by the destructor even when the test fails.
#pragma once

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

namespace advlock::test {

class ScriptedServer {
public:
    // start: e.g. "pg-start.sh", arguments: appended after the state directory.
    ScriptedServer(const std::string &start, const std::string &stop, const std::string &arguments = "")
        : stop_(stop) {
        char pattern[] = "/tmp/advlock-test-server.XXXXXX";
        if (!mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
        state_ = std::string(pattern) + "/state";
        const std::string command =
            script(start) + " " + state_ + " " + arguments + " >" + std::string(pattern) + "/start.log 2>&1";
        if (std::system(command.c_str()) != 0) {
            std::ifstream log(std::string(pattern) + "/start.log");
            const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
            throw std::runtime_error("could not start a test server (" + start + "): " + text);
        }
        base_ = pattern;
    }
    ~ScriptedServer() {
        std::system((script(stop_) + " " + state_ + " >/dev/null 2>&1; rm -rf " + base_).c_str());
    }
    ScriptedServer(const ScriptedServer &) = delete;
    ScriptedServer &operator=(const ScriptedServer &) = delete;

    const std::string &state_dir() const { return state_; }
    std::string url() const { return read("url"); }
    std::string read(const std::string &file) const {
        std::ifstream in(state_ + "/" + file);
        std::string value;
        in >> value;
        return value;
    }

private:
    static std::string script(const std::string &name) { return std::string(ADVLOCK_SOURCE_DIR) + "/scripts/" + name; }
    std::string stop_, state_, base_;
};

inline ScriptedServer start_postgres(const std::string &arguments = "") {
    return ScriptedServer("pg-start.sh", "pg-stop.sh", arguments);
}

}  // namespace advlock::test
