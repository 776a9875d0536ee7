// Who holds MySQL / MariaDB user locks, as far as the server shows it:
//  - MySQL: performance_schema.metadata_locks (holders and waiters);
//  - MariaDB with the metadata_lock_info plugin: information_schema.
//    METADATA_LOCK_INFO (holders only: the plugin does not show waiters);
//  - otherwise IS_USED_LOCK for the registry's locks and the one asked about.
// The list's note says what the server could not show. Never takes a lock.
#pragma once

#include <optional>
#include <string>

#include "mysql/mysql_connection.hpp"
#include "session/holder.hpp"

namespace advlock::core {

class Registry;

// only_name: the full lock name (scope included) to restrict the list to.
HolderList list_mysql_holders(MysqlConnection &connection, const Registry *registry,
                              const std::optional<std::string> &only_name);

}  // namespace advlock::core
