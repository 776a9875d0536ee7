#include "mysql/mysql_holders.hpp"

#include "error.hpp"
#include "mysql/mysql_lock_name.hpp"
#include "registry/registry.hpp"

namespace advlock::core {

namespace {

constexpr const char *kDoing = "listing the holders of MySQL user locks";

// One row as the server gave it: connection id, full lock name, granted, user, host.
struct ServerRow {
    std::string id, name;
    bool granted = true;
    std::optional<std::string> user, host;
};

std::vector<ServerRow> rows_of(const std::vector<MysqlRow> &rows) {
    std::vector<ServerRow> out;
    for (const MysqlRow &row : rows) {
        if (!row.at(0) || !row.at(1)) continue;
        out.push_back({*row[0], *row[1], row.at(2).value_or("1") != "0", row.at(3), row.at(4)});
    }
    return out;
}

std::string name_filter(MysqlConnection &connection, const char *column, const std::optional<std::string> &only) {
    return only ? std::string(" AND ") + column + " = " + connection.literal(*only) : std::string();
}

bool mariadb_plugin_active(MysqlConnection &connection) {
    return connection
               .query_value("SELECT COUNT(*) FROM information_schema.PLUGINS WHERE PLUGIN_NAME = "
                            "'METADATA_LOCK_INFO' AND PLUGIN_STATUS = 'ACTIVE'",
                            kDoing)
               .value_or("0") != "0";
}

// IS_USED_LOCK, one round trip per name: the registry's locks and the one asked about.
std::vector<ServerRow> rows_by_name(MysqlConnection &connection, const Registry *registry,
                                    const std::optional<std::string> &only) {
    std::vector<std::string> names;
    if (only) names.push_back(*only);
    if (registry && !only) {
        for (const RegistryEntry &entry : registry->entries()) {
            try {
                names.push_back(mysql_lock_name(lock_target_of(entry), connection.url().scope));
            } catch (const BadKey &) {
                // too long for MySQL: it cannot be held there either
            }
        }
    }
    std::vector<ServerRow> out;
    for (const std::string &name : names) {
        const std::string sql = "SELECT l.id, " + connection.literal(name) +
                                ", 1, p.USER, p.HOST FROM (SELECT IS_USED_LOCK(" + connection.literal(name) +
                                ") AS id) l LEFT JOIN information_schema.PROCESSLIST p ON p.ID = l.id";
        for (ServerRow &row : rows_of(connection.query(sql, kDoing))) out.push_back(std::move(row));
    }
    return out;
}

Holder holder_of(const ServerRow &row, const LockTarget &target, const std::string &scope, const Registry *registry,
                 unsigned long self) {
    Holder h;
    h.key = target.key();
    if (registry) {
        if (const RegistryEntry *entry = registry->find_key(h.key)) h.lock_name = entry->name;
    }
    if (h.lock_name.empty()) h.lock_name = scope.empty() ? row.name : row.name.substr(scope.size() + 1);
    h.granted = row.granted;
    h.pid = std::stoll(row.id);  // connection ids are 64-bit
    h.is_self = static_cast<unsigned long>(h.pid) == self;
    h.user = row.user;
    if (row.host) h.client_addr = row.host->substr(0, row.host->rfind(':'));
    return h;
}

}  // namespace

HolderList list_mysql_holders(MysqlConnection &connection, const Registry *registry,
                              const std::optional<std::string> &only_name) {
    HolderList list;
    std::vector<ServerRow> rows;
    if (!connection.is_mariadb()) {
        try {
            rows = rows_of(connection.query(
                "SELECT t.PROCESSLIST_ID, m.OBJECT_NAME, m.LOCK_STATUS = 'GRANTED', t.PROCESSLIST_USER, "
                "t.PROCESSLIST_HOST FROM performance_schema.metadata_locks m JOIN performance_schema.threads t "
                "ON t.THREAD_ID = m.OWNER_THREAD_ID WHERE m.OBJECT_TYPE = 'USER LEVEL LOCK'" +
                    name_filter(connection, "m.OBJECT_NAME", only_name),
                kDoing));
        } catch (const ServerError &) {
            list.note = "performance_schema is off or hidden from this user: only the registry's locks and the "
                        "one asked about were checked (IS_USED_LOCK), and waiters are not shown";
            rows = rows_by_name(connection, registry, only_name);
        }
    } else if (mariadb_plugin_active(connection)) {
        rows = rows_of(connection.query(
            "SELECT m.THREAD_ID, m.TABLE_SCHEMA, 1, p.USER, p.HOST FROM information_schema.METADATA_LOCK_INFO m "
            "LEFT JOIN information_schema.PROCESSLIST p ON p.ID = m.THREAD_ID WHERE m.LOCK_TYPE = 'User lock'" +
                name_filter(connection, "m.TABLE_SCHEMA", only_name),
            kDoing));
        list.note = "MariaDB shows holders only: sessions waiting for a lock are not listed";
    } else {
        list.note = "MariaDB's metadata_lock_info plugin is not installed: only the registry's locks and the one "
                    "asked about were checked (IS_USED_LOCK), and waiters are not shown; INSTALL SONAME "
                    "'metadata_lock_info' lists every lock";
        rows = rows_by_name(connection, registry, only_name);
    }
    const std::string &scope = connection.url().scope;
    for (const ServerRow &row : rows) {
        if (const std::optional<LockTarget> target = target_of_mysql_lock_name(row.name, scope)) {
            list.rows.push_back(holder_of(row, *target, scope, registry, connection.connection_id()));
        }
    }
    return list;
}

}  // namespace advlock::core
