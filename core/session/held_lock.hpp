// One acquisition of a lock, released exactly once: by release() (at once,
// errors reported) or, as a last resort, by the destructor (which never
// blocks: the release follows on the session's connection, see
// LockSession::unlock_soon). It shares ownership of its session, so a lock may
// outlive the handle the user closed (bindings finalize in any order).
//
// A HeldLock is an owner in its session's LockOwners table: acquire() waits
// there for the session's other owners first (threads and handles sharing the
// session exclude each other), then takes the lock on the server.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "session/lock_session.hpp"

namespace advlock::core {

struct AcquireOptions {
    long long timeout_ms = 0;  // 0: a try; < 0: as long as it takes
    // The calling thread's reentrant handles on this session are one owner
    // (LockOwners); a non-reentrant handle is its own.
    bool reentrant = false;
    const CancelToken *cancel = nullptr;  // ends this wait only; may be null
    // The binding's id for who is calling (LockOwners' Actor); 0: the OS thread.
    std::uint64_t actor_id = 0;
    // Job slots: 0 takes the lock itself; N >= 1 takes any one free slot of N
    // (keys/slot_keys.hpp). Exclusive only.
    unsigned slots = 0;
    // Issue a fencing token with the grant (LockSession::try_lock_fenced).
    // Exclusive only, and not reentrant: a second acquisition by the same
    // owner would fence out the first.
    bool fenced = false;
};

// How long a wait for a free slot waits on the server for one slot before it
// tries them all again (advlock.h's ADVLOCK_SLOT_WAIT_SLICE_MS).
constexpr long long kSlotWaitSliceMs = 100;

class HeldLock {
public:
    // Not held yet: acquire() takes it.
    HeldLock(std::shared_ptr<LockSession> session, LockTarget target, LockMode mode)
        : session_(std::move(session)), target_(std::move(target)), mode_(mode) {}
    ~HeldLock();

    HeldLock(const HeldLock &) = delete;
    HeldLock &operator=(const HeldLock &) = delete;

    // true: held. false: another owner (in this process or on the server)
    // holds it and the time ran out, or it was a try; nothing to release then.
    // Throws what the session's lock throws, and Deadlock / Canceled from the
    // wait for the session's other owners. Once only.
    bool acquire(const AcquireOptions &options);

    // A set of locks, all or nothing (held_lock_set.cpp): every lock of the
    // set held (true), or none (false). The locks are distinct, not acquired
    // yet, on one session, in one mode; taken in the session's order
    // (LockSession::takes_before) in the process and on the server, so
    // overlapping sets never deadlock. Options as acquire()'s, without slots
    // or fencing. One round trip on PostgreSQL, for a try and for a wait that
    // is granted.
    static bool acquire_all(const std::vector<HeldLock *> &locks, const AcquireOptions &options);
    // Releases every lock of a set (any held locks of one session and mode),
    // in one round trip on PostgreSQL. Refuses the whole call (Misuse) when
    // one was released already; throws what the session's unlock_all throws.
    // Either way every lock counts as released afterwards.
    static void release_all(const std::vector<HeldLock *> &locks);

    // Throws Misuse on a second release or after the session was closed, and
    // whatever the session's unlock throws (LockLost...). Either way the lock
    // counts as released afterwards: retrying cannot help.
    void release();

    // No round trip: Misuse once released, LockLost once the session lost its locks.
    void check() const;
    // One round trip (strict: also the server's lock table for this key).
    void verify(bool strict);

    bool released() const { return released_; }
    // What is held on the server: the target given, or the slot's (key only).
    const LockTarget &target() const { return target_; }
    LockMode mode() const { return mode_; }
    // 1..N once a slot is held; 0 for a lock taken without slots.
    unsigned slot() const { return slot_; }
    // The token issued with the grant; empty unless taken fenced.
    const std::optional<std::int64_t> &fence_token() const { return fence_token_; }

private:
    void end_claim() noexcept;
    // What LockOwners is asked for one lock (by take and acquire_all).
    LockOwners::Request owner_request(const LockTarget &target, const AcquireOptions &options,
                                      LockOwners::Clock::time_point started) const;
    // One attempt on one lock (the target, or a slot's), as acquire() promises.
    bool take(const LockTarget &target, const AcquireOptions &options);
    // The slots: a try of each, then waits for one at a time in slices.
    bool take_a_slot(const AcquireOptions &options);

    std::shared_ptr<LockSession> session_;
    LockTarget target_;
    LockMode mode_;
    unsigned slot_ = 0;
    std::optional<std::int64_t> fence_token_;
    std::optional<LockOwners::Claim> claim_;
    bool acquired_ = false;  // acquire() was called
    bool released_ = true;   // nothing held: before acquire(), after a failed one or a release
};

}  // namespace advlock::core
