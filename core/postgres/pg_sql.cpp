#include "postgres/pg_sql.hpp"

#include <algorithm>

#include "error.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

std::string function_name(LockFunction function, LockMode mode) {
    std::string name = "pg_catalog.";
    switch (function) {
        case LockFunction::TryLock: name += "pg_try_advisory_lock"; break;
        case LockFunction::Lock: name += "pg_advisory_lock"; break;
        case LockFunction::Unlock: name += "pg_advisory_unlock"; break;
        case LockFunction::TryXactLock: name += "pg_try_advisory_xact_lock"; break;
        case LockFunction::XactLock: name += "pg_advisory_xact_lock"; break;
    }
    if (mode == LockMode::Shared) name += "_shared";
    return name;
}

std::string call_with_literals(LockFunction function, LockMode mode, const Key &key) {
    const std::string arguments = key.is_pair() ? std::to_string(key.k1()) + ", " + std::to_string(key.k2())
                                                : std::to_string(key.bigint_value());
    return function_name(function, mode) + "(" + arguments + ")";
}

std::string sql_with_literals(LockFunction function, LockMode mode, const Key &key) {
    return "SELECT " + call_with_literals(function, mode, key);
}

std::string sql_with_parameters(LockFunction function, LockMode mode, Key::Space space) {
    const char *arguments = space == Key::Space::Pair ? "$1::integer, $2::integer" : "$1::bigint";
    return "SELECT " + function_name(function, mode) + "(" + arguments + ")";
}

std::string name_key_sql(const std::string &name) {
    std::string literal = "'";
    for (const char c : name) literal += c == '\'' ? std::string("''") : std::string(1, c);
    literal += "'";
    return "('x' OPERATOR(pg_catalog.||) pg_catalog.left(pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to("
           "'advlock:' OPERATOR(pg_catalog.||) " +
           literal + ", 'UTF8')), 'hex'), 16))::bit(64)::bigint";
}

std::vector<std::string> advisory_function_signatures() {
    std::vector<std::string> signatures;
    for (const char *base : {"pg_advisory_lock", "pg_advisory_unlock", "pg_advisory_xact_lock", "pg_try_advisory_lock",
                             "pg_try_advisory_xact_lock"}) {
        for (const char *suffix : {"", "_shared"}) {
            for (const char *arguments : {"(bigint)", "(integer, integer)"}) {
                signatures.push_back(std::string("pg_catalog.") + base + suffix + arguments);
            }
        }
    }
    signatures.push_back("pg_catalog.pg_advisory_unlock_all()");
    return signatures;
}

std::string privileges_sql(const std::string &role, bool grant) {
    std::string quoted_role;
    if (role == "PUBLIC" || role == "public") {
        quoted_role = "PUBLIC";
    } else {
        quoted_role = "\"";
        for (const char c : role) quoted_role += c == '"' ? std::string("\"\"") : std::string(1, c);
        quoted_role += "\"";
    }
    std::string sql;
    for (const std::string &signature : advisory_function_signatures()) {
        sql += grant ? "GRANT EXECUTE ON FUNCTION " + signature + " TO " + quoted_role + ";\n"
                     : "REVOKE EXECUTE ON FUNCTION " + signature + " FROM " + quoted_role + ";\n";
    }
    return sql;
}

std::string xact_wait_sql(XactWaitStep step, const Key &key, LockMode mode, long long timeout_ms,
                          const std::string &saved) {
    switch (step) {
        case XactWaitStep::Savepoint: return "SAVEPOINT advlock_wait";
        case XactWaitStep::SetTimeout: {
            if (timeout_ms == 0) {
                // lock_timeout 0 means no limit: a zero wait must be a try instead.
                throw InvalidArgument("a transaction wait of 0 ms is a try: run the try_xact_lock statement "
                                      "instead of the wait steps");
            }
            const std::string timeout = timeout_ms < 0 ? "0" : std::to_string(timeout_ms) + "ms";
            // The subquery reads the old value before set_config changes it.
            return "SELECT saved.value, pg_catalog.set_config('lock_timeout', '" + timeout +
                   "', true) FROM (SELECT pg_catalog.current_setting('lock_timeout') AS value OFFSET 0) AS saved";
        }
        case XactWaitStep::Lock: return sql_with_literals(LockFunction::XactLock, mode, key);
        case XactWaitStep::RestoreTimeout: {
            // A setting's text is digits, letters and spaces ("0", "1min"):
            // anything else did not come from SetTimeout.
            const bool plain = !saved.empty() && saved.size() <= 64 &&
                               std::all_of(saved.begin(), saved.end(), [](char c) {
                                   return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                                          (c >= 'A' && c <= 'Z') || c == ' ' || c == '.';
                               });
            if (!plain) {
                throw InvalidArgument("restoring lock_timeout: " + quoted(saved, 70) +
                                      " is not a lock_timeout value; pass what the SetTimeout step answered");
            }
            return "SELECT pg_catalog.set_config('lock_timeout', '" + saved + "', true)";
        }
        case XactWaitStep::Release: return "RELEASE SAVEPOINT advlock_wait";
        case XactWaitStep::RollBack: return "ROLLBACK TO SAVEPOINT advlock_wait";
    }
    throw InvalidArgument("unknown transaction wait step");
}

}  // namespace advlock::core
