#include "session/pending_unlocks.hpp"

namespace advlock::core {

void PendingUnlocks::add(const LockTarget &target, LockMode mode) noexcept {
    std::lock_guard<std::mutex> guard(mutex_);
    try {
        unlocks_.emplace_back(target, mode);
    } catch (...) {
        return;  // out of memory: the lock stays held until the session closes, which releases it
    }
    count_.store(unlocks_.size(), std::memory_order_release);
}

std::vector<PendingUnlocks::Unlock> PendingUnlocks::take() noexcept {
    std::lock_guard<std::mutex> guard(mutex_);
    std::vector<Unlock> taken;
    taken.swap(unlocks_);
    count_.store(0, std::memory_order_release);
    return taken;
}

}  // namespace advlock::core
