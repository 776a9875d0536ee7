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

#include <atomic>
#include <cstdint>
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

    // Release one acquisition without ever blocking: not on the network, not
    // on another thread's wait holding the connection (a lock handle's
    // destructor, run by garbage collectors with their VM lock held). The
    // release follows as soon as the connection is free (PendingUnlocks);
    // nothing is reported. Nothing happens once the session is closed or lost.
    virtual void unlock_soon(const LockTarget &target, LockMode mode) noexcept = 0;

    // Wait on the server until granted (true) or timeout_ms passes (false);
    // timeout_ms < 0 waits without limit, 0 does not wait. Throws Canceled when
    // cancel() or the given token interrupts the wait. A failed wait never
    // leaves a lock behind.
    virtual bool lock(const LockTarget &target, LockMode mode, long long timeout_ms,
                      const CancelToken *cancel = nullptr) = 0;

    // Fencing tokens (advlock.h @ref fencing): try_lock / lock in exclusive
    // mode whose grant also issues the lock's next token, in the same round
    // trip, into `token`. The base throws Unsupported: only PostgreSQL has a
    // table to keep tokens in.
    virtual bool try_lock_fenced(const LockTarget &target, std::int64_t &token);
    virtual bool lock_fenced(const LockTarget &target, long long timeout_ms, const CancelToken *cancel,
                             std::int64_t &token);

    // Sets of locks, all or nothing (HeldLock::acquire_all). `targets` are
    // distinct locks, sorted by takes_before. try_lock_all: every lock
    // acquired (and counted), or none held afterwards. lock_all: waits as
    // lock() does, for all of them, in that order, which every set-taker
    // shares, so two sets overlapping never wait for each other in a cycle; a
    // failed wait leaves none of them behind. unlock_all: one release each,
    // all attempted; throws as unlock() does afterwards. The base runs the
    // single-lock calls one after another (one round trip each); PostgreSQL
    // runs one statement for the whole set.
    virtual bool try_lock_all(const std::vector<LockTarget> &targets, LockMode mode);
    virtual bool lock_all(const std::vector<LockTarget> &targets, LockMode mode, long long timeout_ms,
                          const CancelToken *cancel);
    virtual void unlock_all(const std::vector<LockTarget> &targets, LockMode mode);
    // The order a set's locks are taken in: ascending by key (bigint keys,
    // then pairs; MySQL: by lock name, which is what it locks).
    virtual bool takes_before(const LockTarget &a, const LockTarget &b) const;

    // Interrupt every wait in progress on this session (on the server, and
    // owners waiting for each other in LockOwners), from any thread. No effect
    // otherwise.
    void cancel() {
        cancels_.fetch_add(1);
        owners_.cancel_all();
        cancel_server_wait();
    }
    // How many times cancel() was called: a wait that sees it change while
    // queued for the connection was cancelled.
    std::uint64_t cancels() const noexcept { return cancels_.load(); }

    // The owners of this session's locks within the process.
    LockOwners &owners() { return owners_; }

    // Which lock the server takes for the target, as a string: two targets
    // with the same identity are one lock (MySQL: its lock name).
    virtual std::string owner_key(const LockTarget &target) const;

    // Who holds or waits for locks (only: just that lock), named from the
    // registry when given. Never takes a lock.
    virtual HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) = 0;

    // The server's id for this session (PostgreSQL: the backend pid).
    virtual std::int64_t server_session_id() const = 0;

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
    void set_lost_callback(LossState::Callback callback) { loss_.set_callback(std::move(callback)); }

    // Blocks until the locks are known lost (the watchdog or any call found
    // out), the session is closed (its connection ended, which makes the
    // server release its locks), or timeout_ms passes (< 0: no limit). Lost
    // wins when both happened. Never touches the connection, so it waits
    // beside calls in progress.
    LossWait wait_for_loss(long long timeout_ms) const { return loss_.wait(timeout_ms); }
    // Why the locks were lost (what the lost callback gets); empty before.
    std::string loss_reason() const { return loss_.message(); }
    // For event loops (asyncio add_reader, IO.select): a descriptor that
    // becomes readable once lost or closed, and stays so. Never read or close
    // it: it lives as long as this object. Throws IoError if none can be made.
    int loss_fd() { return loss_.fd(); }

    // The run ledger (advlock run --once-per): when the job completed in the
    // current period (unix microseconds, 0: not yet), and recording it.
    // Backends without a database throw Unsupported.
    virtual long long ledger_completed(const std::string &job, const std::string &period) = 0;
    virtual void ledger_record(const std::string &job, const std::string &period, const std::string &host) = 0;

    // End the session: from any thread, at any time, any number of times,
    // also while other threads are inside calls on it. Every wait ends (on the
    // server, and owners waiting in LockOwners: both throw Misuse), calls in
    // progress leave the connection, the connection closes (which releases
    // every lock on the server), and wait_for_loss / loss_fd wake. Calls that
    // start meanwhile or later throw Misuse; none uses a closed connection.
    // A close that finds another one in progress returns at once (the lost
    // callback may close its session on the watchdog thread that close joins).
    void close() noexcept;
    // True from the moment close() begins.
    bool is_closed() const noexcept { return closing_.load(); }

    // What a wait that cancel() or close() ended throws: Misuse ("the session
    // is closed") once close() began, else Canceled with `why` (and the
    // server's SQLSTATE, if any).
    [[noreturn]] void throw_wait_ended(const std::string &doing, const std::string &why,
                                       const std::string &sqlstate = {}) const;

protected:
    // Interrupt the wait on the server in progress, if any.
    virtual void cancel_server_wait() = 0;
    // close(), once, after every wait was cancelled: stop the watchdog, wait
    // for the calls holding the connection, close it. Each backend's
    // destructor calls close() (which then still reaches its override).
    virtual void close_connection() noexcept = 0;

    // Lost and closed, for every backend (mutable: a const check may find a loss).
    mutable LossState loss_;

private:
    std::atomic<bool> closing_{false};
    LockOwners owners_;
    std::atomic<std::uint64_t> cancels_{0};
};

}  // namespace advlock::core
