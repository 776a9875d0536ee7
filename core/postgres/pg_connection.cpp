#include "postgres/pg_connection.hpp"

#include <cstdlib>

#include "error.hpp"
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

constexpr Default kDefaults[] = {
    {"fallback_application_name", nullptr, "advlock"},
    {"connect_timeout", "PGCONNECT_TIMEOUT", "10"},
};


}  // namespace

PgConnection PgConnection::open(const std::string &url, const PgConnectOptions &options) {
    PgConnection connection;
    connection.secrets_ = secrets_in_conninfo(url);

    std::vector<const char *> keywords, values;
    for (const Default &d : kDefaults) {
        if (d.environment_variable && std::getenv(d.environment_variable)) continue;
        keywords.push_back(d.keyword);
        values.push_back(d.value);
    }
    keywords.push_back("dbname");  // expanded: a URL or conninfo in this slot sets everything it names
    values.push_back(url.c_str());
    if (!options.application_name.empty()) {  // an explicit option beats the URL
        keywords.push_back("application_name");
        values.push_back(options.application_name.c_str());
    }
    keywords.push_back(nullptr);
    values.push_back(nullptr);

    connection.conn_.reset(PQconnectdbParams(keywords.data(), values.data(), /*expand_dbname=*/1));
    if (!connection.conn_) throw ConnectError("cannot connect to PostgreSQL: out of memory in libpq");
    if (PQstatus(connection.conn_.get()) != CONNECTION_OK) {
        const std::string reason = trimmed_message(PQerrorMessage(connection.conn_.get()));
        throw ConnectError(redact("cannot connect to PostgreSQL: " + reason, connection.secrets_));
    }
    return connection;
}

std::string PgConnection::describe() const {
    if (!conn_) return "(closed connection)";
    const char *host = PQhost(conn_.get());
    std::string where = PQuser(conn_.get());
    where += "@";
    where += host && host[0] == '/' ? std::string("[socket ") + host + "]" : (host ? host : "");
    where += ":";
    where += PQport(conn_.get());
    where += "/";
    where += PQdb(conn_.get());
    return where;
}

}  // namespace advlock::core
