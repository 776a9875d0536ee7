// Sets of locks, all or nothing: HeldLock::acquire_all and release_all.
#include <algorithm>

#include "error.hpp"
#include "session/connection_wait.hpp"
#include "session/held_lock.hpp"

namespace advlock::core {

namespace {

std::string describe_set(const std::vector<HeldLock *> &locks) {
    std::string text = "{";
    for (std::size_t i = 0; i < locks.size(); ++i) text += (i ? ", " : "") + locks[i]->target().describe();
    return text + "}";
}

// One session, one mode, no null entries: what both calls need.
void require_one_set(const std::vector<HeldLock *> &locks, const char *doing) {
    if (locks.empty()) throw InvalidArgument(std::string(doing) + " a set of locks: the set is empty; give at least one");
    for (const HeldLock *lock : locks) {
        if (!lock) throw InvalidArgument(std::string(doing) + " a set of locks: one of its locks is NULL");
    }
}

}  // namespace

bool HeldLock::acquire_all(const std::vector<HeldLock *> &locks, const AcquireOptions &options) {
    require_one_set(locks, "lock");
    const std::string what = "lock " + describe_set(locks);
    HeldLock &first = *locks.front();
    for (HeldLock *lock : locks) {
        if (lock->acquired_) throw Misuse(what + ": a lock handle is acquired once; take a new one");
        if (lock->session_ != first.session_) {
            throw InvalidArgument(what + ": the locks of a set must be on one session (one server connection takes "
                                         "them all or none)");
        }
        if (lock->mode_ != first.mode_) throw InvalidArgument(what + ": the locks of a set are taken in one mode");
    }
    if (options.slots > 0) {
        throw InvalidArgument(what + ": job slots take one lock of N; a set takes all of its locks: not both");
    }
    if (options.fenced) {
        throw InvalidArgument(what + ": fencing tokens are issued for single locks only, not for a set");
    }
    LockSession &session = *first.session_;
    std::vector<HeldLock *> ordered = locks;
    std::stable_sort(ordered.begin(), ordered.end(), [&](const HeldLock *a, const HeldLock *b) {
        return session.takes_before(a->target_, b->target_);
    });
    for (std::size_t i = 1; i < ordered.size(); ++i) {
        if (session.owner_key(ordered[i - 1]->target_) == session.owner_key(ordered[i]->target_)) {
            throw InvalidArgument(what + ": " + ordered[i]->target_.describe() +
                                  " is in the set twice (as the same lock); name each lock once");
        }
    }
    for (HeldLock *lock : locks) lock->acquired_ = true;

    // The claims end unless every lock is granted: whatever fails below
    // leaves the session's other owners as they were.
    struct Claims {
        const std::vector<HeldLock *> &locks;
        bool kept = false;
        ~Claims() {
            if (kept) return;
            for (HeldLock *lock : locks) lock->end_claim();
        }
    } claims{ordered};

    // First the session's other owners (threads, handles), each lock in the
    // set's order, within the one deadline...
    const auto started = LockOwners::Clock::now();
    for (HeldLock *lock : ordered) {
        lock->claim_ = session.owners().admit(lock->owner_request(lock->target_, options, started),
                                              [&session] { session.check(); });
        if (!lock->claim_) return false;
    }
    // ...then the server, in one call for the set.
    std::vector<LockTarget> targets;
    targets.reserve(ordered.size());
    for (const HeldLock *lock : ordered) targets.push_back(lock->target_);
    const bool taken = options.timeout_ms == 0
                           ? session.try_lock_all(targets, first.mode_)
                           : session.lock_all(targets, first.mode_, remaining_ms(options.timeout_ms, started),
                                              options.cancel);
    if (!taken) return false;
    claims.kept = true;
    for (HeldLock *lock : ordered) {
        session.owners().granted(*lock->claim_);
        lock->released_ = false;
    }
    return true;
}

void HeldLock::release_all(const std::vector<HeldLock *> &locks) {
    require_one_set(locks, "release");
    const std::string what = "release " + describe_set(locks);
    HeldLock &first = *locks.front();
    std::vector<HeldLock *> distinct = locks;
    std::sort(distinct.begin(), distinct.end());
    if (std::adjacent_find(distinct.begin(), distinct.end()) != distinct.end()) {
        throw Misuse(what + ": a lock handle is in the set twice; each releases once");
    }
    // Checked before anything is released: a refused call releases nothing.
    for (const HeldLock *lock : locks) {
        if (lock->released_) {
            throw Misuse(what + ": " + lock->target_.describe() +
                         " was already released (or never acquired); each lock handle releases once");
        }
        if (lock->session_ != first.session_) throw InvalidArgument(what + ": the locks are on different sessions");
        if (lock->mode_ != first.mode_) throw InvalidArgument(what + ": the locks are held in different modes");
    }
    for (HeldLock *lock : locks) lock->released_ = true;
    // The claims end after the server's unlock, whatever it says (as release()).
    struct EndClaims {
        const std::vector<HeldLock *> &locks;
        ~EndClaims() {
            for (HeldLock *lock : locks) lock->end_claim();
        }
    } end_claims{locks};
    if (first.session_->is_closed()) {
        throw Misuse(what + ": its session was closed, which released the locks on the server");
    }
    std::vector<LockTarget> targets;
    targets.reserve(locks.size());
    for (const HeldLock *lock : locks) targets.push_back(lock->target_);
    first.session_->unlock_all(targets, first.mode_);
}

}  // namespace advlock::core
