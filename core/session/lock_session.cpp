#include "session/lock_session.hpp"

#include "error.hpp"
#include "keys/key_text.hpp"

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
