#include "postgres/pg_connection.hpp"

#include <cstdlib>
#include <optional>

#include "error.hpp"
#include "postgres/pg_connect_once.hpp"
#include "postgres/pg_target_checks.hpp"
#include "postgres/pg_url.hpp"
#include "postgres/pg_timeouts.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

// A default applies only where neither the URL nor the user's PG* environment
// chose otherwise: defaults come before the URL in the keyword list (libpq lets
// later entries win) and are skipped when their environment variable is set.
struct Default {
    const char *keyword;
    const char *environment_variable;
    const char *value;
};

const Default kDefaults[] = {
    {"fallback_application_name", nullptr, "advlock"},
    {"connect_timeout", "PGCONNECT_TIMEOUT", pg_timeouts::kConnectTimeoutSeconds},
    {"keepalives", nullptr, "1"},
    {"keepalives_idle", nullptr, pg_timeouts::kClientKeepalivesIdle},
    {"keepalives_interval", nullptr, pg_timeouts::kClientKeepalivesInterval},
    {"keepalives_count", nullptr, pg_timeouts::kClientKeepalivesCount},
    {"tcp_user_timeout", nullptr, pg_timeouts::kClientTcpUserTimeoutMs},
};

// Notices (WARNINGs such as "you don't own a lock") belong to advlock, not to
// the job's stderr: libpq's default receiver would print them.
void ignore_notice(void *, const PGresult *) {}

// The parameters of the one connection attempt. target_session_attrs=read-write
// only when several hosts are listed, so libpq lands on the writable one; a
// single host is checked after connecting instead, and a standby or read-only
// server is then named as such (check_target_and_configure).
std::vector<std::pair<std::string, std::string>> parameters(const std::string &url, const PgConnectOptions &options) {
    std::vector<std::pair<std::string, std::string>> p;
    for (const Default &d : kDefaults) {
        if (d.environment_variable && std::getenv(d.environment_variable)) continue;
        p.emplace_back(d.keyword, d.value);
    }
    if (!options.allow_standby && !std::getenv("PGTARGETSESSIONATTRS") && listed_hosts(url).size() > 1) {
        p.emplace_back("target_session_attrs", "read-write");
    }
    p.emplace_back("dbname", url);  // expanded: a URL or conninfo here sets everything it names
    if (!options.application_name.empty()) p.emplace_back("application_name", options.application_name);
    return p;
}

std::string describe(PGconn *conn) {
    const char *host = PQhost(conn);
    std::string where = PQuser(conn);
    where += "@";
    where += host && host[0] == '/' ? std::string("[socket ") + host + "]" : (host ? host : "");
    where += ":";
    where += PQport(conn);
    where += "/";
    where += PQdb(conn);
    return "PostgreSQL at " + where;
}

}  // namespace

PgConnection::PgConnection(PgConnection &&) noexcept = default;
PgConnection &PgConnection::operator=(PgConnection &&) noexcept = default;
PgConnection::~PgConnection() = default;

PgConnection PgConnection::open(const std::string &url, const PgConnectOptions &options) {
    check_postgres_conninfo(url);  // before libpq sees it: refuse what it would misread
    PgConnection connection;
    connection.secrets_ = secrets_in_conninfo(url);
    const auto &secrets = connection.secrets_;

    const ConnectAttempt attempt = connect_once(parameters(url, options), &ignore_notice);
    connection.conn_.reset(attempt.conn);
    if (!attempt.timed_out.empty()) {
        throw ConnectError(redact("cannot connect to PostgreSQL: " + attempt.timed_out, secrets));
    }
    if (!connection.conn_) throw ConnectError("cannot connect to PostgreSQL: out of memory in libpq");
    if (PQstatus(connection.conn_.get()) != CONNECTION_OK) {
        const std::string reason = trimmed_message(PQerrorMessage(connection.conn_.get()));
        throw ConnectError(redact("cannot connect to PostgreSQL: " + reason, secrets));
    }
    PGconn *conn = connection.conn_.get();
    connection.identity_ = check_target_and_configure(conn, options, describe(conn), secrets);
    connection.cancel_.reset(PQgetCancel(conn));
    return connection;
}

void PgConnection::close() {
    std::lock_guard<std::mutex> guard(*cancel_mutex_);
    cancel_.reset();
    conn_.reset();
}

bool PgConnection::cancel_running_statement(std::string *error) {
    std::lock_guard<std::mutex> guard(*cancel_mutex_);
    if (!cancel_) return false;
    char buffer[256] = {};
    if (!PQcancel(cancel_.get(), buffer, sizeof buffer)) {
        if (error) *error = redact(buffer, secrets_);
        return false;
    }
    return true;
}

}  // namespace advlock::core
