#include "session/held_lock.hpp"

#include <chrono>

#include "error.hpp"
#include "session/connection_wait.hpp"

namespace advlock::core {

HeldLock::~HeldLock() {
    if (released_) return;
    // Garbage collectors run this with their VM lock held: it must not wait
    // for the connection, which another thread's wait may hold for long. The
    // server's release follows (unlock_soon); the claim ends after handing it
    // over, so the session's other owners are admitted at once, and find the
    // lock theirs (a session's acquisitions stack on the server). Callers who
    // want the release done, or its errors, call release() first.
    session_->unlock_soon(target_, mode_);
    end_claim();
}

void HeldLock::end_claim() noexcept {
    if (claim_) session_->owners().withdraw(*claim_);
    claim_.reset();
}

bool HeldLock::acquire(const AcquireOptions &options) {
    if (acquired_) throw Misuse("lock " + target_.describe() + ": a lock handle is acquired once; take a new one");
    acquired_ = true;
    LockOwners::Request request;
    request.lock = session_->owner_key(target_);
    request.described = (options.timeout_ms == 0 ? "try_lock " : "lock ") + target_.describe();
    request.mode = mode_;
    request.reentrant = options.reentrant;
    request.wait = options.timeout_ms != 0;
    request.cancel = options.cancel;
    request.actor_id = options.actor_id;
    const auto started = LockOwners::Clock::now();
    if (options.timeout_ms > 0) request.deadline = started + std::chrono::milliseconds(options.timeout_ms);
    claim_ = session_->owners().admit(request, [this] { session_->check(); });
    if (!claim_) return false;
    try {
        bool taken;
        if (options.timeout_ms == 0) {
            taken = session_->try_lock(target_, mode_);
        } else {
            // 0 when the local wait used it all up: the session makes one last try.
            taken = session_->lock(target_, mode_, remaining_ms(options.timeout_ms, started), options.cancel);
        }
        if (!taken) {
            end_claim();
            return false;
        }
    } catch (...) {
        end_claim();
        throw;
    }
    session_->owners().granted(*claim_);
    released_ = false;
    return true;
}

void HeldLock::check() const {
    if (released_) throw Misuse("lock " + target_.describe() + " was released; it is no longer held");
    session_->check();
}

void HeldLock::verify(bool strict) {
    check();
    if (strict) {
        session_->verify_held(target_, mode_);
    } else {
        session_->verify();
    }
}

void HeldLock::release() {
    if (released_) {
        throw Misuse("lock " + target_.describe() + " was already released; each lock handle releases once");
    }
    released_ = true;
    // The claim ends after the server's unlock, whatever it says: the next
    // owner then finds the lock free on the server as well.
    struct EndClaim {
        HeldLock &lock;
        ~EndClaim() { lock.end_claim(); }
    } end_claim{*this};
    if (session_->is_closed()) {
        throw Misuse("lock " + target_.describe() +
                     " cannot be released: its session was closed, which released it on the server");
    }
    session_->unlock(target_, mode_);
}

}  // namespace advlock::core
