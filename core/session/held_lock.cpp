#include "session/held_lock.hpp"

#include "error.hpp"

namespace advlock::core {

HeldLock::~HeldLock() {
    if (released_ || session_->is_closed()) return;
    try {
        release();
    } catch (...) {
        // A destructor cannot report; callers who care call release() first.
    }
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
    if (session_->is_closed()) {
        throw Misuse("lock " + target_.describe() +
                     " cannot be released: its session was closed, which released it on the server");
    }
    session_->unlock(target_, mode_);
}

}  // namespace advlock::core
