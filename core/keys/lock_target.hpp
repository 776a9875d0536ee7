// What one lock call names: a key, or a name. PostgreSQL and the local backend
// lock a key (a name's key is the advlock scheme's, DESIGN.md §3); MySQL locks
// names natively, so a name must reach the MySQL backend as text, and a bare
// key is rendered as one there (mysql/mysql_lock_name.hpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "keys/key.hpp"

namespace advlock::core {

class LockTarget {
public:
    // Every key is a target: backends that lock keys take either.
    LockTarget(const Key &key) : key_(key) {}  // NOLINT(google-explicit-constructor)

    // Throws BadKey unless name is a valid lock name (keys/name_schemes.hpp).
    static LockTarget named(std::string_view name);

    // The key to lock on PostgreSQL: for a name, the advlock scheme's key.
    const Key &key() const { return key_; }
    // The name, when the call named the lock by name.
    const std::optional<std::string> &name() const { return name_; }

    // For messages: "'daily_sales' (key -4242...)" or "100:1".
    std::string describe() const;

private:
    Key key_;
    std::optional<std::string> name_;
};

}  // namespace advlock::core
