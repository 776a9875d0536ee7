#include "postgres/pg_connection.hpp"

#include <cstdlib>
#include <optional>

#include "error.hpp"
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

struct Keywords {
    std::vector<const char *> keywords, values;
    void add(const char *keyword, const char *value) {
        keywords.push_back(keyword);
        values.push_back(value);
    }
};

// read_write: add target_session_attrs=read-write as a default, so a URL that
// lists several hosts lands on the writable one.
PGconn *connect(const std::string &url, const PgConnectOptions &options, const char *target_session_attrs,
                bool target_overrides_url) {
    Keywords k;
    for (const Default &d : kDefaults) {
        if (d.environment_variable && std::getenv(d.environment_variable)) continue;
        k.add(d.keyword, d.value);
    }
    const bool target_from_environment = std::getenv("PGTARGETSESSIONATTRS") != nullptr;
    if (target_session_attrs && !target_overrides_url && !target_from_environment) {
        k.add("target_session_attrs", target_session_attrs);
    }
    k.add("dbname", url.c_str());  // expanded: a URL or conninfo here sets everything it names
    if (target_session_attrs && target_overrides_url) k.add("target_session_attrs", target_session_attrs);
    if (!options.application_name.empty()) k.add("application_name", options.application_name.c_str());
    k.add(nullptr, nullptr);
    return PQconnectdbParams(k.keywords.data(), k.values.data(), /*expand_dbname=*/1);
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

    const char *wanted_target = options.allow_standby ? nullptr : "read-write";
    connection.conn_.reset(connect(url, options, wanted_target, false));
    if (!connection.conn_) throw ConnectError("cannot connect to PostgreSQL: out of memory in libpq");

    if (PQstatus(connection.conn_.get()) != CONNECTION_OK) {
        const std::string reason = trimmed_message(PQerrorMessage(connection.conn_.get()));
        if (!wanted_target) throw ConnectError(redact("cannot connect to PostgreSQL: " + reason, secrets));
        // libpq refuses read-only servers in its own (translated) words. To
        // report a standby or a read-only server as such, look once more
        // accepting any server; the checks below then name what is wrong.
        connection.conn_.reset(connect(url, options, "any", true));
        if (!connection.conn_ || PQstatus(connection.conn_.get()) != CONNECTION_OK) {
            throw ConnectError(redact("cannot connect to PostgreSQL: " + reason, secrets));
        }
    }
    PGconn *conn = connection.conn_.get();
    PQsetNoticeReceiver(conn, &ignore_notice, nullptr);
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
