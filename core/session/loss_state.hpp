// Whether a session has lost its locks, why, and the lost callback that must
// fire exactly once; and whether it was closed. Shared by every backend: the
// watchdog thread and the user's calls both report losses here; whoever
// reports first gives the reason. A binding waits here for either outcome
// (wait, or the fd for an event loop), so no binding keeps a state of its own.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>

namespace advlock::core {

// How LockSession::wait_for_loss ended.
enum class LossWait { Lost, Closed, TimedOut };

class LossState {
public:
    using Callback = std::function<void(const std::string &message, const std::string &sqlstate)>;

    LossState() = default;
    ~LossState();
    LossState(const LossState &) = delete;
    LossState &operator=(const LossState &) = delete;

    // No round trip, no lock: safe to call from anywhere, any time.
    bool lost() const noexcept { return lost_.load(std::memory_order_acquire); }

    // Record a loss. Only the first one counts; returns whether this was it.
    bool declare(const std::string &message, const std::string &sqlstate = {});

    // The session's connection is closed (the server frees its locks): wakes the
    // waiters as a loss does. Once is enough; more are harmless.
    void mark_closed() noexcept;
    bool closed() const noexcept { return closed_.load(std::memory_order_acquire); }

    // Blocks until lost (wins when both happened), closed, or timeout_ms
    // passed (< 0: no limit). Takes only this object's own mutex.
    LossWait wait(long long timeout_ms) const;

    // A descriptor that becomes readable, and stays so, once lost or closed;
    // made on first call, closed with this object. Throws IoError.
    int fd();

    // Throws LockLost naming what was being done and why the session was lost.
    [[noreturn]] void throw_lost(const std::string &doing) const;

    std::string message() const;

    // Set (or replace) the callback. If the loss already happened and no
    // callback fired yet, it fires now, on this thread.
    void set_callback(Callback callback);

    // Fire the callback if a loss is recorded and it has not fired yet. Call it
    // while holding no other lock: the callback may call back into advlock.
    // The callback is the last thing this touches, so it may even end the
    // session that owns this state.
    void fire_if_pending();

private:
    // Wakes wait() and makes the fd readable. Caller holds mutex_.
    void signal_locked() noexcept;

    std::atomic<bool> lost_{false};
    std::atomic<bool> closed_{false};
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    std::string message_, sqlstate_;
    Callback callback_;
    bool fired_ = false;
    int fd_ = -1;  // an eventfd written once, never read: level-triggered readable
};

}  // namespace advlock::core
