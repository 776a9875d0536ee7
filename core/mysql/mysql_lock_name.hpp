// The text GET_LOCK receives (DESIGN.md §3): a name as it is, a pair key as
// "advlock:K1:K2", a bigint key as "advlock:N", each after the URL's scope and
// a colon when one is set. MySQL and MariaDB count at most 64 characters
// (MariaDB accepts more, MySQL refuses them), so advlock enforces 64 itself
// and a job behaves the same on both.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "keys/lock_target.hpp"

namespace advlock::core {

constexpr std::size_t kMysqlLockNameMaxChars = 64;

// Throws BadKey naming the limit when the result would exceed 64 characters.
std::string mysql_lock_name(const LockTarget &target, const std::string &scope);

// The reverse, for names the server lists: the key advlock would lock for it
// ("advlock:..." back to its key, any other name by the advlock scheme), or
// nothing when the name lies outside the scope or is not a valid lock name.
std::optional<LockTarget> target_of_mysql_lock_name(std::string_view server_name, const std::string &scope);

}  // namespace advlock::core
