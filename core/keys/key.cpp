#include "keys/key.hpp"

#include <string>

#include "error.hpp"

namespace advlock::core {

PgLocksKey Key::to_pg_locks() const {
    if (space_ == Space::Pair) {
        return {static_cast<std::uint32_t>(k1_), static_cast<std::uint32_t>(k2_), 2};
    }
    const auto bits = static_cast<std::uint64_t>(bigint_);
    return {static_cast<std::uint32_t>(bits >> 32), static_cast<std::uint32_t>(bits), 1};
}

Key Key::from_pg_locks(const PgLocksKey &pg) {
    switch (pg.objsubid) {
        case 1:
            return bigint(static_cast<std::int64_t>(std::uint64_t{pg.classid} << 32 | pg.objid));
        case 2:
            return pair(static_cast<std::int32_t>(pg.classid), static_cast<std::int32_t>(pg.objid));
        default:
            throw BadKey("pg_locks objsubid " + std::to_string(pg.objsubid) +
                         " is not an advisory-lock key: advisory locks have objsubid 1 (bigint key) "
                         "or 2 (pair key)");
    }
}

}  // namespace advlock::core
