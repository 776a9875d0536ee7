#include "session/loss_state.hpp"

#include "error.hpp"

namespace advlock::core {

bool LossState::declare(const std::string &message, const std::string &sqlstate) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (lost_.load(std::memory_order_relaxed)) return false;
    message_ = message;
    sqlstate_ = sqlstate;
    lost_.store(true, std::memory_order_release);
    return true;
}

void LossState::throw_lost(const std::string &doing) const {
    std::lock_guard<std::mutex> guard(mutex_);
    throw LockLost(doing + ": the session lost its locks earlier (" + message_ +
                       "); stop acting as the holder, and open a new session to take the lock again",
                   sqlstate_);
}

std::string LossState::message() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return message_;
}

void LossState::set_callback(Callback callback) {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        callback_ = std::move(callback);
    }
    fire_if_pending();
}

void LossState::fire_if_pending() {
    if (!lost()) return;  // every user call ends here: keep the usual case free of the mutex
    Callback callback;
    std::string message, sqlstate;
    {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!lost_.load(std::memory_order_relaxed) || fired_ || !callback_) return;
        fired_ = true;
        callback = callback_;
        message = message_;
        sqlstate = sqlstate_;
    }
    callback(message, sqlstate);  // last: the callback may destroy this object's owner
}

}  // namespace advlock::core
