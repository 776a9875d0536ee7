#include "session/lock_owners.hpp"

#include <algorithm>

#include "error.hpp"

namespace advlock::core {

bool LockOwners::same_owner(const Entry &a, const Entry &b) {
    return a.claim == b.claim || (a.reentrant && b.reentrant && a.actor == b.actor);
}

bool LockOwners::modes_conflict(LockMode a, LockMode b) {
    return a == LockMode::Exclusive || b == LockMode::Exclusive;
}

std::vector<const LockOwners::Entry *> LockOwners::blockers(const Entries &entries, const Entry &self) {
    const bool owner_holds = std::any_of(entries.begin(), entries.end(), [&](const Entry &e) {
        return e.claim != self.claim && same_owner(e, self) && e.state != State::Waiting;
    });
    std::vector<const Entry *> in_the_way;
    bool ahead = true;  // entries before self arrived earlier
    for (const Entry &e : entries) {
        if (e.claim == self.claim) {
            ahead = false;
            continue;
        }
        if (same_owner(e, self) || !modes_conflict(e.mode, self.mode)) continue;
        // Holders and takers are always in the way; an earlier waiter only of
        // an owner that does not hold the lock yet (else it would wait for us).
        if (e.state != State::Waiting || (ahead && !owner_holds)) in_the_way.push_back(&e);
    }
    return in_the_way;
}

std::optional<LockOwners::Claim> LockOwners::admit(const Request &request, const std::function<void()> &check) {
    check();
    // Made before mutex_ is taken: the token's action takes it.
    const CancelToken::Watch watch(request.cancel, [this] {
        std::lock_guard<std::mutex> guard(mutex_);
        changed_.notify_all();
    });
    std::unique_lock<std::mutex> lock(mutex_);
    const Claim claim = next_claim_++;
    const Actor me = Actor::current(request.actor_id);
    Entries &entries = locks_[request.lock];  // element references survive rehashing
    entries.push_back({claim, request.mode, request.reentrant, me, State::Waiting});
    claims_.emplace(claim, request.lock);
    const std::uint64_t generation = cancel_generation_;
    const auto give_up = [&] {
        lock.unlock();
        withdraw(claim);
    };

    for (;;) {
        const auto self = std::find_if(entries.begin(), entries.end(), [&](const Entry &e) { return e.claim == claim; });
        const std::vector<const Entry *> in_the_way = blockers(entries, *self);
        if (in_the_way.empty()) {
            self->state = State::Taking;
            return claim;
        }
        if (!request.wait) {
            give_up();
            return std::nullopt;
        }
        const bool waits_for_itself = std::any_of(in_the_way.begin(), in_the_way.end(), [&](const Entry *e) {
            return e->actor == me && e->state != State::Waiting;
        });
        if (waits_for_itself) {
            give_up();
            throw Deadlock(request.described +
                           ": this thread already holds it on this session through another lock handle, so the "
                           "wait would never end; release that handle first, or take both as reentrant locks");
        }
        if (closes_a_cycle(me, in_the_way)) {
            give_up();
            throw Deadlock(request.described +
                           ": another thread holding it waits, through locks of this session, for one this thread "
                           "holds, so neither wait would end; this wait was refused (release and retry)");
        }
        if ((request.cancel && request.cancel->cancelled()) || generation != cancel_generation_) {
            give_up();
            check();  // a session closed meanwhile says so (Misuse), as the next look would
            throw Canceled(request.described + ": the wait was cancelled");
        }
        auto wake_at = Clock::now() + kCheckInterval;
        if (request.deadline) {
            if (Clock::now() >= *request.deadline) {
                give_up();
                return std::nullopt;
            }
            wake_at = std::min(wake_at, *request.deadline);
        }
        changed_.wait_until(lock, wake_at);
        lock.unlock();
        try {
            check();  // a lost or closed session ends the wait
        } catch (...) {
            withdraw(claim);
            throw;
        }
        lock.lock();
    }
}

bool LockOwners::closes_a_cycle(const Actor &me, const std::vector<const Entry *> &in_the_way) const {
    std::vector<Actor> pending, seen;
    for (const Entry *e : in_the_way) pending.push_back(e->actor);
    while (!pending.empty()) {
        const Actor actor = pending.back();
        pending.pop_back();
        if (actor == me) return true;
        if (std::find(seen.begin(), seen.end(), actor) != seen.end()) continue;
        seen.push_back(actor);
        // An actor waits in one place at a time: follow its wait, if any.
        for (const auto &lock : locks_) {
            for (const Entry &e : lock.second) {
                if (e.actor != actor || e.state != State::Waiting) continue;
                for (const Entry *next : blockers(lock.second, e)) pending.push_back(next->actor);
            }
        }
    }
    return false;
}

LockOwners::Entries::iterator LockOwners::find_locked(Claim claim, std::string *lock) {
    const auto named = claims_.find(claim);
    if (named == claims_.end()) return {};
    *lock = named->second;
    Entries &entries = locks_[named->second];
    return std::find_if(entries.begin(), entries.end(), [&](const Entry &e) { return e.claim == claim; });
}

void LockOwners::granted(Claim claim) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::string lock;
    const auto entry = find_locked(claim, &lock);
    if (!lock.empty()) entry->state = State::Held;
}

void LockOwners::withdraw(Claim claim) noexcept {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        std::string lock;
        const auto entry = find_locked(claim, &lock);
        if (lock.empty()) return;
        Entries &entries = locks_[lock];
        entries.erase(entry);
        if (entries.empty()) locks_.erase(lock);
        claims_.erase(claim);
    }
    changed_.notify_all();
}

void LockOwners::cancel_all() {
    {
        std::lock_guard<std::mutex> guard(mutex_);
        ++cancel_generation_;
    }
    changed_.notify_all();
}

}  // namespace advlock::core
