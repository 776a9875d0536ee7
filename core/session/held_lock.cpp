#include "session/held_lock.hpp"

#include <algorithm>
#include <chrono>

#include "error.hpp"
#include "keys/slot_keys.hpp"
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

namespace {

void validate(const AcquireOptions &options, LockMode mode, const std::string &what) {
    validate_slot_count(options.slots, what.c_str());
    if (options.slots > 0 && mode != LockMode::Exclusive) {
        throw InvalidArgument(what + ": job slots are exclusive locks; a shared lock has no limit to count");
    }
    if (options.fenced && mode != LockMode::Exclusive) {
        throw InvalidArgument(what + ": a fencing token goes with an exclusive lock (shared holders would fence "
                                     "each other out)");
    }
    if (options.fenced && options.reentrant) {
        throw InvalidArgument(what + ": a fenced lock cannot be reentrant: taking it again would issue a newer "
                                     "token and fence out the first acquisition");
    }
}

}  // namespace

bool HeldLock::acquire(const AcquireOptions &options) {
    if (acquired_) throw Misuse("lock " + target_.describe() + ": a lock handle is acquired once; take a new one");
    acquired_ = true;
    validate(options, mode_, "lock " + target_.describe());
    if (options.slots > 0) return take_a_slot(options);
    return take(target_, options);
}

bool HeldLock::take_a_slot(const AcquireOptions &options) {
    const Key base = target_.key();
    const auto slot_target = [&](unsigned slot) { return LockTarget(slot_key(base, slot)); };
    const auto started = LockOwners::Clock::now();
    AcquireOptions one = options;
    one.slots = 0;
    for (unsigned round = 0;; ++round) {
        one.timeout_ms = 0;
        for (unsigned slot = 1; slot <= options.slots; ++slot) {
            if (take(slot_target(slot), one)) {
                slot_ = slot;
                return true;
            }
        }
        if (options.timeout_ms == 0) return false;
        long long slice = kSlotWaitSliceMs;
        if (options.timeout_ms > 0) {
            const long long left = remaining_ms(options.timeout_ms, started);
            if (left == 0) return false;
            slice = std::min(slice, left);
        }
        // Waiting on the server for one slot at a time, each in turn: the
        // server cannot wait for "any of N", and a slot whose holder dies is
        // freed by the server without telling anyone.
        const unsigned waited_on = round % options.slots + 1;
        one.timeout_ms = slice;
        if (take(slot_target(waited_on), one)) {
            slot_ = waited_on;
            return true;
        }
    }
}

LockOwners::Request HeldLock::owner_request(const LockTarget &target, const AcquireOptions &options,
                                            LockOwners::Clock::time_point started) const {
    LockOwners::Request request;
    request.lock = session_->owner_key(target);
    request.described = (options.timeout_ms == 0 ? "try_lock " : "lock ") + target.describe();
    request.mode = mode_;
    request.reentrant = options.reentrant;
    request.wait = options.timeout_ms != 0;
    request.cancel = options.cancel;
    request.actor_id = options.actor_id;
    if (options.timeout_ms > 0) request.deadline = started + std::chrono::milliseconds(options.timeout_ms);
    return request;
}

bool HeldLock::take(const LockTarget &target, const AcquireOptions &options) {
    const auto started = LockOwners::Clock::now();
    claim_ = session_->owners().admit(owner_request(target, options, started), [this] { session_->check(); });
    if (!claim_) return false;
    try {
        bool taken;
        std::int64_t token = 0;
        if (options.timeout_ms == 0) {
            taken = options.fenced ? session_->try_lock_fenced(target, token) : session_->try_lock(target, mode_);
        } else {
            // 0 when the local wait used it all up: the session makes one last try.
            const long long left = remaining_ms(options.timeout_ms, started);
            taken = options.fenced ? session_->lock_fenced(target, left, options.cancel, token)
                                   : session_->lock(target, mode_, left, options.cancel);
        }
        if (!taken) {
            end_claim();
            return false;
        }
        if (options.fenced) fence_token_ = token;
    } catch (...) {
        end_claim();
        throw;
    }
    target_ = target;
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
