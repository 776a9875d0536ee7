#include "session/loss_state.hpp"

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <sys/eventfd.h>
#include <unistd.h>

#include "error.hpp"

namespace advlock::core {

LossState::~LossState() {
    if (fd_ >= 0) ::close(fd_);
}

bool LossState::declare(const std::string &message, const std::string &sqlstate) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (lost_.load(std::memory_order_relaxed)) return false;
    message_ = message;
    sqlstate_ = sqlstate;
    lost_.store(true, std::memory_order_release);
    signal_locked();
    return true;
}

void LossState::mark_closed() noexcept {
    std::lock_guard<std::mutex> guard(mutex_);
    if (closed_.exchange(true, std::memory_order_acq_rel)) return;
    signal_locked();
}

void LossState::signal_locked() noexcept {
    changed_.notify_all();
    if (fd_ >= 0) {
        // Counts up and is never read: the fd stays readable. A second signal
        // (closed after lost) only adds to the count.
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(fd_, &one, sizeof one);
    }
}

LossWait LossState::wait(long long timeout_ms) const {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto done = [this] { return lost() || closed(); };
    // Beyond about 34 years a deadline could overflow the clock: that is forever.
    constexpr long long kForeverMs = 1LL << 40;
    if (timeout_ms < 0 || timeout_ms >= kForeverMs) {
        changed_.wait(lock, done);
    } else if (!changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms), done)) {
        return LossWait::TimedOut;
    }
    return lost() ? LossWait::Lost : LossWait::Closed;
}

int LossState::fd() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (fd_ >= 0) return fd_;
    const int made = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (made < 0) {
        throw IoError(std::string("cannot make the session's loss descriptor: eventfd failed: ") +
                      std::strerror(errno));
    }
    fd_ = made;
    if (lost() || closed()) signal_locked();  // it happened before anyone asked
    return fd_;
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
