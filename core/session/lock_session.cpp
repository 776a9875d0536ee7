#include "session/lock_session.hpp"

#include <chrono>
#include <exception>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "session/connection_wait.hpp"

namespace advlock::core {

namespace {
[[noreturn]] void no_fencing(const LockTarget &target) {
    throw Unsupported("lock " + target.describe() + " with a fencing token: fencing tokens need PostgreSQL, whose "
                      "table public.advlock_fence keeps them next to the job's data; this backend has none");
}
}  // namespace

bool LockSession::try_lock_fenced(const LockTarget &target, std::int64_t &) { no_fencing(target); }

bool LockSession::lock_fenced(const LockTarget &target, long long, const CancelToken *, std::int64_t &) {
    no_fencing(target);
}

std::string LockSession::owner_key(const LockTarget &target) const { return format_key(target.key()); }

bool LockSession::takes_before(const LockTarget &a, const LockTarget &b) const { return a.key() < b.key(); }

namespace {
// Releases what a failed set acquisition took so far. Its own errors are
// dropped: the failure that caused it is the one to report, and a loss they
// found is recorded in the session anyway.
void undo(LockSession &session, const std::vector<LockTarget> &taken, LockMode mode) noexcept {
    for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
        try {
            session.unlock(*it, mode);
        } catch (...) {
        }
    }
}
}  // namespace

bool LockSession::try_lock_all(const std::vector<LockTarget> &targets, LockMode mode) {
    return lock_all(targets, mode, 0, nullptr);
}

bool LockSession::lock_all(const std::vector<LockTarget> &targets, LockMode mode, long long timeout_ms,
                           const CancelToken *cancel) {
    const auto started = std::chrono::steady_clock::now();
    std::vector<LockTarget> taken;
    try {
        for (const LockTarget &target : targets) {
            const bool got = timeout_ms == 0 ? try_lock(target, mode)
                                             : lock(target, mode, remaining_ms(timeout_ms, started), cancel);
            if (!got) {
                undo(*this, taken, mode);
                return false;
            }
            taken.push_back(target);
        }
    } catch (...) {
        undo(*this, taken, mode);
        throw;
    }
    return true;
}

void LockSession::unlock_all(const std::vector<LockTarget> &targets, LockMode mode) {
    std::exception_ptr first;
    for (const LockTarget &target : targets) {
        try {
            unlock(target, mode);
        } catch (...) {
            if (!first) first = std::current_exception();
        }
    }
    if (first) std::rethrow_exception(first);
}

void LockSession::close() noexcept {
    if (closing_.exchange(true)) return;
    // Seen after closing_: a wait that begins from now on finds the session
    // closed, one already in progress is ended by this cancel.
    cancel();
    close_connection();
    loss_.mark_closed();  // last: Closed means the connection is gone (the server then frees its locks)
}

void LockSession::throw_wait_ended(const std::string &doing, const std::string &why,
                                   const std::string &sqlstate) const {
    if (is_closed()) {
        throw Misuse(doing + ": the session is closed (it was closed during the wait); open a new one");
    }
    throw Canceled(doing + why, sqlstate);
}

}  // namespace advlock::core
