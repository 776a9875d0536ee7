#include "postgres/pg_sql.hpp"

namespace advlock::core {

std::string function_name(LockFunction function, LockMode mode) {
    std::string name;
    switch (function) {
        case LockFunction::TryLock: name = "pg_try_advisory_lock"; break;
        case LockFunction::Lock: name = "pg_advisory_lock"; break;
        case LockFunction::Unlock: name = "pg_advisory_unlock"; break;
        case LockFunction::TryXactLock: name = "pg_try_advisory_xact_lock"; break;
        case LockFunction::XactLock: name = "pg_advisory_xact_lock"; break;
    }
    if (mode == LockMode::Shared) name += "_shared";
    return name;
}

std::string sql_with_literals(LockFunction function, LockMode mode, const Key &key) {
    const std::string arguments = key.is_pair() ? std::to_string(key.k1()) + ", " + std::to_string(key.k2())
                                                : std::to_string(key.bigint_value());
    return "SELECT " + function_name(function, mode) + "(" + arguments + ")";
}

std::string sql_with_parameters(LockFunction function, LockMode mode, Key::Space space) {
    const char *arguments = space == Key::Space::Pair ? "$1::int4, $2::int4" : "$1::int8";
    return "SELECT " + function_name(function, mode) + "(" + arguments + ")";
}

}  // namespace advlock::core
