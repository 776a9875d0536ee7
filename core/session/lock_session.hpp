// What every backend's session offers (PostgreSQL, MySQL/MariaDB, the local
// flock backend): one dedicated connection that holds locks. Sessions
// serialise their own calls, so one may be used from several threads.
// Locks are named by a LockTarget: a key, or a name (which only MySQL uses as
// text; the others lock the name's advlock key).
//
// try_lock / lock / unlock here are the server's view: the session as one
// holder, re-entry counted. Owners within the process (threads, handles) are
// told apart one level up, by HeldLock and the session's LockOwners table, so
// that two handles on one session exclude each other as two sessions do.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "keys/lock_target.hpp"
#include "session/cancel_token.hpp"
#include "session/holder.hpp"
#include "session/lock_mode.hpp"
#include "session/lock_owners.hpp"
#include "session/loss_state.hpp"

namespace advlock::core {

class Registry;

class LockSession {
public:
    virtual ~LockSession() = default;

    // true: acquired (and counted); false: another session holds it.
    virtual bool try_lock(const LockTarget &target, LockMode mode) = 0;

    // Release one acquisition. Throws LockLost when the server says this
    // session did not hold it, Misuse when the session is closed or this
    // session never took it.
    virtual void unlock(const LockTarget &target, LockMode mode) = 0;

    // Wait on the server until granted (true) or timeout_ms passes (false);
    // timeout_ms < 0 waits without limit, 0 does not wait. Throws Canceled when
    // cancel() or the given token interrupts the wait. A failed wait never
    // leaves a lock behind.
    virtual bool lock(const LockTarget &target, LockMode mode, long long timeout_ms,
                      const CancelToken *cancel = nullptr) = 0;

    // Interrupt every wait in progress on this session (on the server, and
    // owners waiting for each other in LockOwners), from any thread. No effect
    // otherwise.
    void cancel() {
        owners_.cancel_all();
        cancel_server_wait();
    }

    // The owners of this session's locks within the process.
    LockOwners &owners() { return owners_; }

    // Which lock the server takes for the target, as a string: two targets
    // with the same identity are one lock (MySQL: its lock name).
    virtual std::string owner_key(const LockTarget &target) const;

    // Who holds or waits for locks (only: just that lock), named from the
    // registry when given. Never takes a lock.
    virtual HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) = 0;

    // The server's id for this session (PostgreSQL: the backend pid).
    virtual int server_session_id() const = 0;

    // No round trip: throws LockLost once the session's locks are known to be
    // gone (the watchdog or an earlier call found out), Misuse after close.
    virtual void check() const = 0;

    // One round trip, whose cost does not grow with the locks on the server:
    // throws LockLost when the session is no longer the one that took its locks.
    virtual void verify() = 0;

    // As verify(), and asks the server's lock table whether this session holds
    // the key in that mode (cost grows with the server's lock table).
    virtual void verify_held(const LockTarget &target, LockMode mode) = 0;

    // Called once, on whichever thread finds out, when the locks are lost.
    virtual void set_lost_callback(LossState::Callback callback) = 0;

    // The run ledger (advlock run --once-per): when the job completed in the
    // current period (unix microseconds, 0: not yet), and recording it.
    // Backends without a database throw Unsupported.
    virtual long long ledger_completed(const std::string &job, const std::string &period) = 0;
    virtual void ledger_record(const std::string &job, const std::string &period, const std::string &host) = 0;

    // End the connection, which releases every lock; later calls throw Misuse.
    virtual void close() noexcept = 0;
    virtual bool is_closed() const = 0;

protected:
    // Interrupt the wait on the server in progress, if any.
    virtual void cancel_server_wait() = 0;

private:
    LockOwners owners_;
};

}  // namespace advlock::core
