// One acquisition of a lock, released exactly once: by release() or, as a last
// resort, by the destructor. It shares ownership of its session, so a lock may
// outlive the handle the user closed (bindings finalize in any order).
#pragma once

#include <memory>

#include "session/lock_session.hpp"

namespace advlock::core {

class HeldLock {
public:
    HeldLock(std::shared_ptr<LockSession> session, LockTarget target, LockMode mode)
        : session_(std::move(session)), target_(std::move(target)), mode_(mode) {}
    ~HeldLock();

    HeldLock(const HeldLock &) = delete;
    HeldLock &operator=(const HeldLock &) = delete;

    // Throws Misuse on a second release or after the session was closed, and
    // whatever the session's unlock throws (LockLost...). Either way the lock
    // counts as released afterwards: retrying cannot help.
    void release();

    // No round trip: Misuse once released, LockLost once the session lost its locks.
    void check() const;
    // One round trip (strict: also the server's lock table for this key).
    void verify(bool strict);

    // For a handle made before the attempt to lock, when the attempt failed:
    // there is nothing to release.
    void mark_not_held() noexcept { released_ = true; }

    bool released() const { return released_; }
    const LockTarget &target() const { return target_; }
    LockMode mode() const { return mode_; }

private:
    std::shared_ptr<LockSession> session_;
    LockTarget target_;
    LockMode mode_;
    bool released_ = false;
};

}  // namespace advlock::core
