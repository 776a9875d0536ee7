// Transaction-scoped locks on the caller's connection, and SQL for other drivers.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "entry_point.hpp"
#include "handles.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"
#include "postgres/pg_errors.hpp"
#include "postgres/pg_fence.hpp"
#include "postgres/pg_run_ledger.hpp"
#include "postgres/pg_sql.hpp"
#include "postgres/pg_xact_locks.hpp"
#include "text/message_text.hpp"
#include "text/utf8.hpp"

using advlock::capi::allocated_copy;
using advlock::capi::guarded;
using advlock::capi::require;
namespace core = advlock::core;

namespace {

core::LockFunction to_core(advlock_sql_kind kind, const char *function) {
    switch (kind) {
        case ADVLOCK_SQL_TRY_LOCK: return core::LockFunction::TryLock;
        case ADVLOCK_SQL_LOCK: return core::LockFunction::Lock;
        case ADVLOCK_SQL_UNLOCK: return core::LockFunction::Unlock;
        case ADVLOCK_SQL_TRY_XACT_LOCK: return core::LockFunction::TryXactLock;
        case ADVLOCK_SQL_XACT_LOCK: return core::LockFunction::XactLock;
        default: break;
    }
    throw core::InvalidArgument(std::string(function) + ": SQL kind " + std::to_string(kind) +
                                " is not one of ADVLOCK_SQL_TRY_LOCK .. ADVLOCK_SQL_XACT_LOCK");
}

static_assert(static_cast<int>(core::XactWaitStep::Savepoint) == ADVLOCK_XACT_WAIT_SAVEPOINT &&
                  static_cast<int>(core::XactWaitStep::RollBack) == ADVLOCK_XACT_WAIT_ROLLBACK,
              "the C steps are the core's, in the same order");

}  // namespace

extern "C" {

advlock_status advlock_xact_try_lock(struct pg_conn *conn, const advlock_key *key, advlock_mode mode) {
    return guarded(__func__, [&](const char *function) {
        require(conn, function, "conn");
        require(key, function, "key");
        const bool acquired = core::xact_try_lock(conn, advlock::capi::to_core(*key, function),
                                                  advlock::capi::to_core(mode, function));
        return acquired ? ADVLOCK_OK : ADVLOCK_NOT_ACQUIRED;
    });
}

advlock_status advlock_xact_lock(struct pg_conn *conn, const advlock_key *key, advlock_mode mode,
                                 int64_t timeout_ms) {
    return guarded(__func__, [&](const char *function) {
        require(conn, function, "conn");
        require(key, function, "key");
        advlock::capi::require_timeout(timeout_ms, function);
        const bool acquired = core::xact_lock(conn, advlock::capi::to_core(*key, function),
                                              advlock::capi::to_core(mode, function), timeout_ms);
        return acquired ? ADVLOCK_OK : ADVLOCK_NOT_ACQUIRED;
    });
}

advlock_status advlock_xact_wait_sql(char **out, advlock_xact_wait_step step, const advlock_key *key,
                                     advlock_mode mode, int64_t timeout_ms, const char *saved_lock_timeout) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        advlock::capi::require_timeout(timeout_ms, function);
        if (step < ADVLOCK_XACT_WAIT_SAVEPOINT || step > ADVLOCK_XACT_WAIT_ROLLBACK) {
            throw core::InvalidArgument(std::string(function) + ": step " + std::to_string(step) +
                                        " is not one of ADVLOCK_XACT_WAIT_SAVEPOINT .. ADVLOCK_XACT_WAIT_ROLLBACK");
        }
        if (step == ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT) require(saved_lock_timeout, function, "saved_lock_timeout");
        const std::string sql = core::xact_wait_sql(static_cast<core::XactWaitStep>(step),
                                                    advlock::capi::to_core(*key, function),
                                                    advlock::capi::to_core(mode, function), timeout_ms,
                                                    saved_lock_timeout ? saved_lock_timeout : "");
        *out = allocated_copy(sql);
        return ADVLOCK_OK;
    });
}

advlock_status advlock_status_from_sqlstate(const char *sqlstate) {
    try {
        return core::status_of_sqlstate(sqlstate ? sqlstate : "");
    } catch (...) {
        return ADVLOCK_ENOMEM;  // the only way a five-character copy fails
    }
}

advlock_status advlock_sql(char *out, size_t out_size, advlock_sql_kind kind, const advlock_key *key,
                           advlock_mode mode) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        const std::string sql = core::sql_with_literals(to_core(kind, function), advlock::capi::to_core(mode, function),
                                                        advlock::capi::to_core(*key, function));
        advlock::capi::copy_to_buffer(out, out_size, sql, function, "ADVLOCK_SQL_TEXT_SIZE");
        return ADVLOCK_OK;
    });
}

void advlock_free(void *pointer) { std::free(pointer); }


advlock_status advlock_key_name_sql(char **out, const char *name, size_t name_len) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(name, function, "name");
        const std::string text(name, advlock::capi::string_length(name, name_len));
        core::validate_lock_name(text);
        *out = allocated_copy(core::name_key_sql(text));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_sql_ledger(char **out) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = allocated_copy(core::ledger_ddl());
        return ADVLOCK_OK;
    });
}

advlock_status advlock_sql_fence(char **out) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = allocated_copy(core::fence_ddl());
        return ADVLOCK_OK;
    });
}

advlock_status advlock_fence_check(struct pg_conn *conn, const advlock_key *key, int64_t token) {
    return guarded(__func__, [&](const char *function) {
        require(conn, function, "conn");
        require(key, function, "key");
        core::fence_check(conn, advlock::capi::to_core(*key, function), token);
        return ADVLOCK_OK;
    });
}

advlock_status advlock_fence_check_sql(char **out, const advlock_key *key, int64_t token) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(key, function, "key");
        *out = allocated_copy(core::fence_check_sql(advlock::capi::to_core(*key, function), token));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_sql_privileges(char **out, const char *role, unsigned flags) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(role, function, "role");
        const std::string name = role;
        if (name.empty() || name.size() > 63 || !advlock::core::is_valid_utf8(name)) {
            throw core::InvalidArgument(std::string(function) + ": role " + advlock::core::quoted(name) +
                                        " is not a role name: give 1 to 63 bytes of UTF-8");
        }
        advlock::capi::require_flags(flags, ADVLOCK_SQL_GRANT, function, "flags");
        *out = allocated_copy(core::privileges_sql(name, (flags & ADVLOCK_SQL_GRANT) != 0));
        return ADVLOCK_OK;
    });
}

advlock_status advlock_sql_result(advlock_sql_kind kind, const advlock_key *key, int boolean_result) {
    return guarded(__func__, [&](const char *function) {
        require(key, function, "key");
        const core::LockFunction lock_function = to_core(kind, function);
        const core::Key k = advlock::capi::to_core(*key, function);
        if (!core::returns_boolean(lock_function)) {
            throw core::InvalidArgument(std::string(function) + ": " + core::function_name(lock_function, core::LockMode::Exclusive) +
                                        " returns no boolean; it succeeds or raises an error");
        }
        if (boolean_result) return ADVLOCK_OK;
        if (lock_function == core::LockFunction::Unlock) {
            throw core::LockLost("unlock " + core::format_key(k) +
                                 ": the server says this session no longer held the lock, so it was lost earlier");
        }
        return ADVLOCK_NOT_ACQUIRED;
    });
}

}  // extern "C"
