// A cancel token ends the waits it is given, and only those. Cancelling a
// whole session (LockSession::cancel) would also end the waits of the other
// threads sharing it; a binding instead gives each wait its own token and turns
// one thread's interruption (Java's Thread.interrupt, Ruby's Ctrl-C) into the
// end of that thread's wait.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace advlock::core {

class CancelToken {
public:
    // From any thread, any time. Sticky: a wait that starts afterwards with this
    // token ends at once, so an interruption just before a wait is not lost.
    void cancel();
    bool cancelled() const noexcept { return cancelled_.load(std::memory_order_acquire); }

    // While a Watch lives, cancel() runs its action (at once, on this thread, if
    // the token is already cancelled). The action runs under the token's mutex:
    // it may take the waiter's own mutexes, so a Watch must be made and
    // destroyed while holding none of those.
    class Watch {
    public:
        Watch(const CancelToken *token, std::function<void()> action);
        ~Watch();
        Watch(const Watch &) = delete;
        Watch &operator=(const Watch &) = delete;

    private:
        const CancelToken *token_;
        std::uint64_t id_ = 0;
    };

private:
    std::atomic<bool> cancelled_{false};
    // Watching does not change whether the token is cancelled, so a wait may
    // watch a token it was given as const.
    mutable std::mutex mutex_;
    mutable std::map<std::uint64_t, std::function<void()>> actions_;
    mutable std::uint64_t next_id_ = 1;
};

}  // namespace advlock::core
