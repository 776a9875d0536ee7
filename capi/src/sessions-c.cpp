// Sessions and their locks.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "entry_point.hpp"
#include "handles.hpp"
#include "local/local_url.hpp"
#include "local/local_session.hpp"
#ifndef ADVLOCK_WITH_MYSQL
#error "ADVLOCK_WITH_MYSQL must be 0 or 1 (core/CMakeLists.txt defines it)"
#endif
#if ADVLOCK_WITH_MYSQL
#include "mysql/mysql_session.hpp"
#include "mysql/mysql_url.hpp"
#endif
#include "postgres/pg_session.hpp"
#include "session/database_url.hpp"

using advlock::capi::guarded;
using advlock::capi::require;
using advlock::capi::string_length;
namespace core = advlock::core;

namespace advlock::capi {

core::LockMode to_core(advlock_mode mode, const char *function) {
    switch (mode) {
        case ADVLOCK_EXCLUSIVE: return core::LockMode::Exclusive;
        case ADVLOCK_SHARED: return core::LockMode::Shared;
        default: break;
    }
    throw core::InvalidArgument(std::string(function) + ": mode " + std::to_string(mode) +
                                " is neither ADVLOCK_EXCLUSIVE (0) nor ADVLOCK_SHARED (1)");
}

// The shared path of every try_lock, lock and acquire: the handle is
// allocated before the lock is taken, so an allocation failure cannot strand a
// held lock. target() names the lock (a key or a name) and may throw for bad
// input; options() gives the acquisition's options and may throw too.
template <typename Target, typename Options>
advlock_status acquire(const char *name, advlock_lock **out, advlock_session *session, advlock_mode mode,
                       Target &&target, Options &&options) {
    if (out) *out = nullptr;
    return guarded(name, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        const core::LockTarget wanted = target(function);
        const core::LockMode lock_mode = to_core(mode, function);
        const core::AcquireOptions acquire_options = options(function);
        std::unique_ptr<advlock_lock> handle(new advlock_lock{{session->session, wanted, lock_mode}});
        if (!handle->held.acquire(acquire_options)) return ADVLOCK_NOT_ACQUIRED;
        *out = handle.release();
        return ADVLOCK_OK;
    });
}

// The lock a target argument names.
inline auto by_target(const advlock_target *target) {
    return [target](const char *function) {
        require(target, function, "target");
        return to_core(*target, function);
    };
}

inline auto try_taking() {
    return [](const char *) { return core::AcquireOptions{}; };
}

inline auto taking_within(int64_t timeout_ms) {
    return [timeout_ms](const char *function) {
        require_timeout(timeout_ms, function);
        core::AcquireOptions options;
        options.timeout_ms = timeout_ms;
        return options;
    };
}

// Options of any version this library knows; NULL is the defaults (a try).
inline auto taking_as(const advlock_lock_options *given) {
    return [given](const char *function) {
        core::AcquireOptions options;
        if (!given) return options;
        if (given->version < 1 || given->version > ADVLOCK_LOCK_OPTIONS_VERSION) {
            throw core::InvalidArgument(std::string(function) + ": lock options version " +
                                        std::to_string(given->version) + " is unknown to this library (version " ADVLOCK_VERSION
                                        "); initialise options with advlock_lock_options_init");
        }
        require_flags(given->flags, ADVLOCK_LOCK_REENTRANT | ADVLOCK_LOCK_FENCED, function, "lock options flags");
        require_timeout(given->timeout_ms, function);
        options.timeout_ms = given->timeout_ms;
        options.reentrant = (given->flags & ADVLOCK_LOCK_REENTRANT) != 0;
        options.fenced = (given->flags & ADVLOCK_LOCK_FENCED) != 0;
        options.cancel = given->cancel ? &given->cancel->token : nullptr;
        options.actor_id = given->owner_id;
        // Version 1 structs end before slots: never read past what the caller has.
        if (given->version >= 2) options.slots = given->slots;
        return options;
    };
}

namespace {

// Options of any version this library knows, copied over defaults.
advlock_session_options effective_options(const advlock_session_options *given, const char *function) {
    advlock_session_options options{};
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    if (!given) return options;
    if (given->version < 1 || given->version > ADVLOCK_SESSION_OPTIONS_VERSION) {
        throw core::InvalidArgument(std::string(function) + ": options version " + std::to_string(given->version) +
                                    " is unknown to this library (version " ADVLOCK_VERSION
                                    "); initialise options with advlock_session_options_init");
    }
    require_flags(given->flags, ADVLOCK_SESSION_ALLOW_STANDBY | ADVLOCK_SESSION_ALLOW_POOLER, function,
                  "session options flags");
    options.application_name = given->application_name;
    options.flags = given->flags;
    options.heartbeat_interval_ms = given->heartbeat_interval_ms;
    options.heartbeat_deadline_ms = given->heartbeat_deadline_ms;
    options.on_lost = given->on_lost;
    options.on_lost_payload = given->on_lost_payload;
    // Version 1 structs end before stop_grace_ms: never read past what the caller has.
    if (given->version >= 2) options.stop_grace_ms = given->stop_grace_ms;
    return options;
}

// The C callback behind the core's: no exception can come back through C.
core::LossState::Callback lost_trampoline(advlock_lost_callback on_lost, void *payload) {
    return [on_lost, payload](const std::string &message, const std::string &sqlstate) {
        const advlock_error why{ADVLOCK_ELOST, message.c_str(), sqlstate.c_str()};
        on_lost(&why, payload);
    };
}

}  // namespace

}  // namespace advlock::capi

extern "C" {

advlock_status advlock_session_options_init(advlock_session_options *opts, unsigned int version) {
    return guarded(__func__, [&](const char *function) {
        require(opts, function, "opts");
        if (version < 1 || version > ADVLOCK_SESSION_OPTIONS_VERSION) {
            throw core::InvalidArgument(std::string(function) + ": options version " + std::to_string(version) +
                                        " is unknown to this library (version " ADVLOCK_VERSION ")");
        }
        // A version 1 struct ends before stop_grace_ms: write only what the caller has.
        const std::size_t size = version == 1 ? offsetof(advlock_session_options, stop_grace_ms) : sizeof *opts;
        const advlock_session_options defaults{};
        std::memcpy(opts, &defaults, size);
        opts->version = version;
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_open(advlock_session **out, const char *url, const advlock_session_options *opts) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(url, function, "url");
        const advlock_session_options options = advlock::capi::effective_options(opts, function);
        core::PgSessionOptions session_options;
        if (options.application_name) session_options.connect.application_name = options.application_name;
        session_options.connect.allow_standby = (options.flags & ADVLOCK_SESSION_ALLOW_STANDBY) != 0;
        session_options.connect.allow_pooler = (options.flags & ADVLOCK_SESSION_ALLOW_POOLER) != 0;
        if (options.heartbeat_interval_ms) session_options.heartbeat_interval_ms = options.heartbeat_interval_ms;
        if (options.heartbeat_deadline_ms) session_options.heartbeat_deadline_ms = options.heartbeat_deadline_ms;
        if (options.stop_grace_ms) session_options.stop_grace_ms = options.stop_grace_ms;
        std::shared_ptr<core::LockSession> opened;
        if (core::is_local_url(url)) {
            opened = core::LocalSession::open(url, session_options.heartbeat_interval_ms);
        } else if (core::is_mysql_url(url)) {
#if ADVLOCK_WITH_MYSQL
            core::MysqlSessionOptions mysql_options;
            mysql_options.connect.application_name = session_options.connect.application_name;
            mysql_options.connect.allow_read_only = session_options.connect.allow_standby;
            mysql_options.heartbeat_interval_ms = session_options.heartbeat_interval_ms;
            mysql_options.heartbeat_deadline_ms = session_options.heartbeat_deadline_ms;
            mysql_options.stop_grace_ms = session_options.stop_grace_ms;
            opened = core::MysqlSession::open(url, mysql_options);
#else
            core::refuse_missing_mysql_backend();
#endif
        } else {
            core::check_database_url(url);  // a typo gets a did-you-mean, not libpq's parse error
            opened = core::PgSession::open(url, session_options);
        }
        auto handle = std::make_unique<advlock_session>(advlock_session{std::move(opened)});
        if (options.on_lost) {
            handle->session->set_lost_callback(advlock::capi::lost_trampoline(options.on_lost, options.on_lost_payload));
        }
        *out = handle.release();
        return ADVLOCK_OK;
    });
}

void advlock_session_close(advlock_session *session) {
    if (session) session->session->close();
}

void advlock_session_free(advlock_session *session) {
    advlock_session_close(session);
    delete session;
}

advlock_status advlock_session_try_lock(advlock_lock **out, advlock_session *session, const advlock_target *target,
                                        advlock_mode mode) {
    return advlock::capi::acquire(__func__, out, session, mode, advlock::capi::by_target(target),
                                  advlock::capi::try_taking());
}

advlock_status advlock_session_lock(advlock_lock **out, advlock_session *session, const advlock_target *target,
                                    advlock_mode mode, int64_t timeout_ms) {
    return advlock::capi::acquire(__func__, out, session, mode, advlock::capi::by_target(target),
                                  advlock::capi::taking_within(timeout_ms));
}

advlock_status advlock_lock_options_init(advlock_lock_options *opts, unsigned int version) {
    return guarded(__func__, [&](const char *function) {
        require(opts, function, "opts");
        if (version < 1 || version > ADVLOCK_LOCK_OPTIONS_VERSION) {
            throw core::InvalidArgument(std::string(function) + ": lock options version " + std::to_string(version) +
                                        " is unknown to this library (version " ADVLOCK_VERSION ")");
        }
        // A version 1 struct ends before slots: write only what the caller has.
        const std::size_t size = version == 1 ? offsetof(advlock_lock_options, slots) : sizeof *opts;
        const advlock_lock_options defaults{};
        std::memcpy(opts, &defaults, size);
        opts->version = version;
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_acquire(advlock_lock **out, advlock_session *session, const advlock_target *target,
                                       advlock_mode mode, const advlock_lock_options *opts) {
    return advlock::capi::acquire(__func__, out, session, mode, advlock::capi::by_target(target),
                                  advlock::capi::taking_as(opts));
}

advlock_status advlock_session_acquire_all(advlock_lock **out, advlock_session *session, const advlock_target *targets,
                                           size_t count, advlock_mode mode, const advlock_lock_options *opts) {
    if (out && count) std::fill(out, out + count, nullptr);
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        require(targets, function, "targets");
        if (count == 0) {
            throw core::InvalidArgument(std::string(function) + ": count is 0; a set takes at least one lock");
        }
        const core::LockMode lock_mode = advlock::capi::to_core(mode, function);
        const core::AcquireOptions acquire_options = advlock::capi::taking_as(opts)(function);
        // Handles first, as for one lock: no allocation can fail once the locks are held.
        std::vector<std::unique_ptr<advlock_lock>> handles;
        std::vector<core::HeldLock *> set;
        handles.reserve(count);
        set.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            handles.emplace_back(new advlock_lock{{session->session, advlock::capi::to_core(targets[i], function),
                                                   lock_mode}});
            set.push_back(&handles.back()->held);
        }
        if (!core::HeldLock::acquire_all(set, acquire_options)) return ADVLOCK_NOT_ACQUIRED;
        for (size_t i = 0; i < count; ++i) out[i] = handles[i].release();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_cancel_token_new(advlock_cancel_token **out) {
    if (out) *out = nullptr;
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = new advlock_cancel_token{};
        return ADVLOCK_OK;
    });
}

advlock_status advlock_cancel_token_cancel(advlock_cancel_token *token) {
    return guarded(__func__, [&](const char *function) {
        require(token, function, "token")->token.cancel();
        return ADVLOCK_OK;
    });
}

void advlock_cancel_token_free(advlock_cancel_token *token) { delete token; }

advlock_status advlock_session_cancel(advlock_session *session) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session")->session->cancel();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_set_lost_callback(advlock_session *session, advlock_lost_callback on_lost,
                                                 void *payload) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session");
        session->session->set_lost_callback(on_lost ? advlock::capi::lost_trampoline(on_lost, payload)
                                                    : core::LossState::Callback());
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_check(const advlock_session *session) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session")->session->check();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_wait_lost(advlock_session *session, int64_t timeout_ms) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session");
        advlock::capi::require_timeout(timeout_ms, function);
        if (session->session->wait_for_loss(timeout_ms) == core::LossWait::TimedOut) return ADVLOCK_OK;
        session->session->check();  // throws LockLost (with why) or Misuse (closed)
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_loss_fd(int *out, advlock_session *session) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = require(session, function, "session")->session->loss_fd();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_verify(advlock_session *session) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session")->session->verify();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_key(advlock_key *out, const advlock_lock *lock) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = advlock::capi::to_c(require(lock, function, "lock")->held.target().key());
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_slot(unsigned *out, const advlock_lock *lock) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        *out = require(lock, function, "lock")->held.slot();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_fence_token(int64_t *out, const advlock_lock *lock) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        const core::HeldLock &held = require(lock, function, "lock")->held;
        if (!held.fence_token()) {
            throw core::Misuse(std::string(function) + ": lock " + held.target().describe() +
                               " was taken without a fencing token; take it with ADVLOCK_LOCK_FENCED");
        }
        *out = *held.fence_token();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_check(const advlock_lock *lock) {
    return guarded(__func__, [&](const char *function) {
        require(lock, function, "lock")->held.check();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_verify(advlock_lock *lock, unsigned flags) {
    return guarded(__func__, [&](const char *function) {
        require(lock, function, "lock");
        advlock::capi::require_flags(flags, ADVLOCK_VERIFY_STRICT, function, "flags");
        lock->held.verify((flags & ADVLOCK_VERIFY_STRICT) != 0);
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_ledger_completed(int64_t *out, advlock_session *session, const char *job,
                                                const char *period) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        require(job, function, "job");
        require(period, function, "period");
        *out = session->session->ledger_completed(job, period);
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_ledger_record(advlock_session *session, const char *job, const char *period,
                                             const char *host) {
    return guarded(__func__, [&](const char *function) {
        require(session, function, "session");
        require(job, function, "job");
        require(period, function, "period");
        session->session->ledger_record(job, period, host ? host : "");
        return ADVLOCK_OK;
    });
}

advlock_status advlock_session_server_id(int64_t *out, const advlock_session *session) {
    return guarded(__func__, [&](const char *function) {
        require(out, function, "out");
        require(session, function, "session");
        *out = session->session->server_session_id();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_release(advlock_lock *lock) {
    return guarded(__func__, [&](const char *function) {
        require(lock, function, "lock");
        lock->held.release();
        return ADVLOCK_OK;
    });
}

advlock_status advlock_lock_release_all(advlock_lock *const *locks, size_t count) {
    return guarded(__func__, [&](const char *function) {
        require(locks, function, "locks");
        if (count == 0) throw core::InvalidArgument(std::string(function) + ": count is 0; give at least one lock");
        std::vector<core::HeldLock *> set;
        set.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            if (!locks[i]) {
                throw core::InvalidArgument(std::string(function) + ": locks[" + std::to_string(i) +
                                            "] is NULL; nothing was released");
            }
            set.push_back(&locks[i]->held);
        }
        core::HeldLock::release_all(set);
        return ADVLOCK_OK;
    });
}

void advlock_lock_free(advlock_lock *lock) { delete lock; }

}  // extern "C"
