// The locks of one session, as its owners hold them. The server counts a
// session's own acquisitions as re-entry: without this table, two threads (or
// two handles) sharing a session would both "hold" one exclusive lock. Every
// acquisition through a HeldLock passes here first: it waits here, in the
// process and never on the connection, until no other owner of this session
// holds or is taking the lock in a conflicting mode; only then does it go to the
// server, where other sessions' holders are waited for.
//
// Owners: a non-reentrant acquisition is its own owner, so two handles conflict
// even on one thread (as java.util.concurrent.Semaphore, Python's Lock). The
// reentrant acquisitions of one thread on one session together are one owner
// (as ReentrantLock, RLock, and a PostgreSQL session itself): they never
// conflict with each other, shared then exclusive included; they do conflict
// with every other owner. Modes conflict as on the server: exclusive with
// anything, shared with exclusive.
//
// A wait that would close a cycle (threads waiting for each other through
// this table, as two upgrades from shared) is refused with Deadlock, as the
// server refuses one between sessions; the thread holding a handle is taken
// to be the one that will release it.
//
// Waiters are admitted in arrival order (a new owner does not overtake one
// already waiting for a conflicting mode), except that an owner which already
// holds the lock is never queued behind a waiter: that waiter waits for it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "session/cancel_token.hpp"
#include "session/lock_mode.hpp"

namespace advlock::core {

// Who runs a request: the calling OS thread, or an id the binding gives for
// a thread of its own runtime (a Java virtual thread moves between OS
// threads; several share one). Reentrant grouping and the deadlock checks
// go by it.
struct Actor {
    std::thread::id thread;
    std::uint64_t id = 0;  // 0: the thread
    static Actor current(std::uint64_t id) { return id ? Actor{{}, id} : Actor{std::this_thread::get_id(), 0}; }
    friend bool operator==(const Actor &a, const Actor &b) { return a.id == b.id && a.thread == b.thread; }
    friend bool operator!=(const Actor &a, const Actor &b) { return !(a == b); }
};

class LockOwners {
public:
    using Claim = std::uint64_t;
    using Clock = std::chrono::steady_clock;

    struct Request {
        std::string lock;    // the lock's identity on its server (LockSession::owner_key)
        std::string described;  // the lock for messages
        LockMode mode = LockMode::Exclusive;
        bool reentrant = false;
        std::optional<Clock::time_point> deadline;  // none: wait as long as it takes
        bool wait = false;                          // false: a try, never waits
        const CancelToken *cancel = nullptr;
        std::uint64_t actor_id = 0;  // Actor::id; 0: the calling thread
    };

    // A claim (now taking the lock: go to the server) or nothing when another
    // owner holds it and the request may not wait or its time ran out. Throws
    // Canceled (the token, or cancel_all), Deadlock (the only owners in the way
    // are this thread's own non-reentrant handles: the wait would never end),
    // and whatever check throws (LockLost, Misuse), which runs before and
    // while waiting.
    std::optional<Claim> admit(const Request &request, const std::function<void()> &check);

    // The server granted the claim's lock.
    void granted(Claim claim);
    // The claim ends: its acquisition failed, or the lock was released.
    void withdraw(Claim claim) noexcept;

    // End every wait in progress here (LockSession::cancel).
    void cancel_all();

private:
    enum class State { Waiting, Taking, Held };
    struct Entry {
        Claim claim;
        LockMode mode;
        bool reentrant;
        Actor actor;
        State state;
    };
    using Entries = std::vector<Entry>;

    static bool same_owner(const Entry &a, const Entry &b);
    static bool modes_conflict(LockMode a, LockMode b);
    // The entries that keep `self` from being admitted now.
    static std::vector<const Entry *> blockers(const Entries &entries, const Entry &self);
    Entries::iterator find_locked(Claim claim, std::string *lock);
    // Whether the actors `in_the_way` wait, through this table, for `me`.
    bool closes_a_cycle(const Actor &me, const std::vector<const Entry *> &in_the_way) const;

    // How often a waiter looks whether its session was lost or closed: those
    // are noticed elsewhere (the watchdog), which does not wake this table.
    static constexpr std::chrono::milliseconds kCheckInterval{20};

    std::mutex mutex_;
    std::condition_variable changed_;
    std::unordered_map<std::string, Entries> locks_;
    std::unordered_map<Claim, std::string> claims_;  // claim -> lock
    Claim next_claim_ = 1;
    std::uint64_t cancel_generation_ = 0;
};

}  // namespace advlock::core
