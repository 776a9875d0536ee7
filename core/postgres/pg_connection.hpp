// A libpq connection owned by one advlock session: opened with advlock's
// defaults, closed on destruction, never shared with anything else.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace advlock::core {

struct PgConnectOptions {
    // Empty: whatever the URL or PGAPPNAME says, else "advlock".
    std::string application_name;
};

class PgConnection {
public:
    // url: postgresql:// URL or key=value conninfo; "" uses the PG* environment.
    // Throws ConnectError; messages never contain the password.
    static PgConnection open(const std::string &url, const PgConnectOptions &options);

    PGconn *get() const { return conn_.get(); }
    explicit operator bool() const { return conn_ != nullptr; }
    void close() { conn_.reset(); }

    // "user@host:port/dbname" of the live connection, without secrets.
    std::string describe() const;
    // Passwords found in the URL, to be scrubbed from any later message.
    const std::vector<std::string> &secrets() const { return secrets_; }

private:
    struct Finish {
        void operator()(PGconn *conn) const { PQfinish(conn); }
    };
    std::unique_ptr<PGconn, Finish> conn_;
    std::vector<std::string> secrets_;
};

}  // namespace advlock::core
