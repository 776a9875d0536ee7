// Releases handed over by a lock handle's destructor, to be run on the
// connection later. That destructor runs in garbage collectors' finalizers
// (Java, Python, Ruby) with the language's VM lock held: it must never wait,
// and the session's connection may be busy with another thread's wait on the
// server for as long as that wait lasts. So the release waits here instead,
// and whoever next has the connection (the watchdog thread, or any call)
// runs it. A late release is still right on PostgreSQL and MySQL: a session's
// acquisitions of one lock stack, so releasing one of them after a new
// acquisition leaves the new one held.
#pragma once

#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

#include "keys/lock_target.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

class PendingUnlocks {
public:
    using Unlock = std::pair<LockTarget, LockMode>;

    // Never blocks for long: the mutex guards only this list.
    void add(const LockTarget &target, LockMode mode) noexcept;
    // No lock: for the hot path of every call.
    bool empty() const noexcept { return count_.load(std::memory_order_acquire) == 0; }
    // Everything pending, removed from the list.
    std::vector<Unlock> take() noexcept;

private:
    mutable std::mutex mutex_;
    std::vector<Unlock> unlocks_;
    std::atomic<std::size_t> count_{0};
};

}  // namespace advlock::core
