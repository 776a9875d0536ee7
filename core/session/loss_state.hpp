// Whether a session has lost its locks, why, and the lost callback that must
// fire exactly once. Shared by every backend: the watchdog thread and the
// user's calls both report losses here; whoever reports first gives the reason.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace advlock::core {

class LossState {
public:
    using Callback = std::function<void(const std::string &message, const std::string &sqlstate)>;

    // No round trip, no lock: safe to call from anywhere, any time.
    bool lost() const noexcept { return lost_.load(std::memory_order_acquire); }

    // Record a loss. Only the first one counts; returns whether this was it.
    bool declare(const std::string &message, const std::string &sqlstate = {});

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
    std::atomic<bool> lost_{false};
    mutable std::mutex mutex_;
    std::string message_, sqlstate_;
    Callback callback_;
    bool fired_ = false;
};

}  // namespace advlock::core
