// How many times a session took each lock, by mode: what every backend keeps
// so that each release matches an acquisition (a release of a lock never
// taken is Misuse, not a server call), re-entry is granted without a wait,
// and a close forgets everything at once. The lock is identified as the
// backend's server does: a Key (PostgreSQL, local), a lock name (MySQL).
#pragma once

#include <functional>
#include <unordered_map>

#include "session/lock_mode.hpp"

namespace advlock::core {

template <typename Lock, typename Hash = std::hash<Lock>>
class HoldCounts {
public:
    // 0 when not held in that mode.
    int count(const Lock &lock, LockMode mode) const {
        const auto &counts = of(mode);
        const auto it = counts.find(lock);
        return it == counts.end() ? 0 : it->second;
    }

    // One more acquisition.
    void add(const Lock &lock, LockMode mode) { ++of(mode)[lock]; }

    // One fewer: the acquisitions left, or -1 when none was counted (nothing changes then).
    int remove(const Lock &lock, LockMode mode) {
        auto &counts = of(mode);
        const auto it = counts.find(lock);
        if (it == counts.end()) return -1;
        const int left = --it->second;
        if (left == 0) counts.erase(it);
        return left;
    }

    bool empty() const { return counts_[0].empty() && counts_[1].empty(); }
    void clear() {
        counts_[0].clear();
        counts_[1].clear();
    }

private:
    using Counts = std::unordered_map<Lock, int, Hash>;
    Counts &of(LockMode mode) { return counts_[mode == LockMode::Shared ? 1 : 0]; }
    const Counts &of(LockMode mode) const { return counts_[mode == LockMode::Shared ? 1 : 0]; }

    Counts counts_[2];  // exclusive, shared
};

}  // namespace advlock::core
