// Waiting for a lock on the server: timeouts, hand-over, cancellation from
// another thread, deadlocks, and the cancel/grant race that must never leave a
// lock behind. No assertion depends on how fast anything happens.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <random>
#include <string>
#include <thread>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

struct WaitResult {
    advlock_status status;
    Lock lock;
    std::string message;
};

// Starts advlock_session_lock on another thread.
std::future<WaitResult> wait_for(advlock_session *session, advlock_key key, int64_t timeout_ms,
                                 advlock_mode mode = ADVLOCK_EXCLUSIVE) {
    return std::async(std::launch::async, [=] {
        advlock_lock *lock = nullptr;
        const advlock_status status = advlock_session_lock(&lock, session, of_key(key), mode, timeout_ms);
        return WaitResult{status, Lock(lock), status < 0 ? advlock_error_last()->message : ""};
    });
}

}  // namespace

TEST(LockWaits, TimeoutIsNotAcquiredAndLeavesNothingBehind) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    Lock held = take(holder, key);
    ASSERT_NE(held, nullptr);
    advlock_lock *lock = reinterpret_cast<advlock_lock *>(0x1);
    EXPECT_EQ(advlock_session_lock(&lock, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, 50), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(lock, nullptr);
    Psql psql;
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(waiter)), "");
    // The session's lock_timeout went back to 0: a wait without limit still waits.
    auto pending = wait_for(waiter.get(), key, ADVLOCK_WAIT_FOREVER);
    wait_until_waiting(psql, backend_pid(waiter));
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    EXPECT_EQ(pending.get().status, ADVLOCK_OK);
}

TEST(LockWaits, ZeroTimeoutIsATry) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    advlock_lock *lock = nullptr;
    ASSERT_EQ(advlock_session_lock(&lock, a.get(), of_key(key), ADVLOCK_EXCLUSIVE, 0), ADVLOCK_OK);
    Lock held(lock);
    EXPECT_EQ(advlock_session_lock(&lock, b.get(), of_key(key), ADVLOCK_EXCLUSIVE, 0), ADVLOCK_NOT_ACQUIRED);
}

TEST(LockWaits, WaiterGetsTheLockWhenTheHolderReleases) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    Lock held = take(holder, key);
    auto pending = wait_for(waiter.get(), key, ADVLOCK_WAIT_FOREVER);
    Psql psql;
    wait_until_waiting(psql, backend_pid(waiter));
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    WaitResult result = pending.get();
    ASSERT_EQ(result.status, ADVLOCK_OK) << result.message;
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(waiter)), "granted");
    EXPECT_EQ(take(holder, key), nullptr);
}

TEST(LockWaits, SharedWaitersShareAndExclusiveWaitsForThemAll) {
    const advlock_key key = test_key();
    Session writer = open_session(), reader1 = open_session(), reader2 = open_session();
    Lock exclusive = take(writer, key);
    auto first = wait_for(reader1.get(), key, ADVLOCK_WAIT_FOREVER, ADVLOCK_SHARED);
    auto second = wait_for(reader2.get(), key, ADVLOCK_WAIT_FOREVER, ADVLOCK_SHARED);
    Psql psql;
    wait_until_waiting(psql, backend_pid(reader1));
    wait_until_waiting(psql, backend_pid(reader2));
    exclusive.reset();
    WaitResult r1 = first.get(), r2 = second.get();
    ASSERT_EQ(r1.status, ADVLOCK_OK);
    ASSERT_EQ(r2.status, ADVLOCK_OK);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, writer.get(), of_key(key), ADVLOCK_EXCLUSIVE, 20), ADVLOCK_NOT_ACQUIRED);
}

TEST(LockWaits, CancelFromAnotherThreadEndsTheWait) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    Lock held = take(holder, key);
    auto pending = wait_for(waiter.get(), key, ADVLOCK_WAIT_FOREVER);
    Psql psql;
    wait_until_waiting(psql, backend_pid(waiter));
    ASSERT_EQ(advlock_session_cancel(waiter.get()), ADVLOCK_OK);
    WaitResult result = pending.get();
    EXPECT_EQ(result.status, ADVLOCK_ECANCELED);
    EXPECT_NE(result.message.find("cancelled"), std::string::npos) << result.message;
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(waiter)), "");
    // The session stays usable after a cancelled wait.
    held.reset();
    EXPECT_NE(take(waiter, key), nullptr);
}

TEST(LockWaits, CancelWithoutAWaitDoesNothing) {
    Session a = open_session();
    EXPECT_EQ(advlock_session_cancel(a.get()), ADVLOCK_OK);
    EXPECT_NE(take(a, test_key()), nullptr);
    EXPECT_EQ(advlock_session_cancel(nullptr), ADVLOCK_EINVAL);
}

// The holder releases while the waiter is cancelled: the server may grant the
// lock an instant before the cancel lands. Whatever the outcome, the waiter
// must hold the lock exactly when advlock says it does.
TEST(LockWaits, CancelRacingTheGrantNeverLeaksALock) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    const int64_t waiter_pid = backend_pid(waiter);
    Psql psql;
    std::mt19937 random(7);
    int granted = 0, cancelled = 0, released_again = 0;
    constexpr int kRounds = 200;
    for (int round = 0; round < kRounds; ++round) {
        Lock held = take(holder, key);
        ASSERT_NE(held, nullptr);
        auto pending = wait_for(waiter.get(), key, ADVLOCK_WAIT_FOREVER);
        wait_until_waiting(psql, waiter_pid);
        // Release and cancel from two threads started together, one of them
        // held back by a varying few microseconds, so both orders happen.
        std::atomic<bool> go{false};
        const auto delay = std::chrono::microseconds(random() % 400);
        const bool cancel_first = random() % 2;
        std::thread canceller([&] {
            while (!go) {}
            if (!cancel_first) std::this_thread::sleep_for(delay);
            advlock_session_cancel(waiter.get());
        });
        std::thread releaser([&] {
            while (!go) {}
            if (cancel_first) std::this_thread::sleep_for(delay);
            advlock_lock_release(held.get());
        });
        go = true;
        canceller.join();
        releaser.join();
        WaitResult result = pending.get();
        ASSERT_TRUE(result.status == ADVLOCK_OK || result.status == ADVLOCK_ECANCELED)
            << advlock_status_name(result.status) << ": " << result.message;
        if (result.status == ADVLOCK_OK) {
            ++granted;
            ASSERT_EQ(advisory_locks_of(psql, waiter_pid), "granted");
            ASSERT_EQ(advlock_lock_release(result.lock.get()), ADVLOCK_OK);
        } else {
            ++cancelled;
            if (result.message.find("released again") != std::string::npos) ++released_again;
        }
        ASSERT_EQ(advisory_locks_of(psql, waiter_pid), "") << "round " << round << " left a lock behind";
    }
    EXPECT_EQ(granted + cancelled, kRounds);
    std::cout << "[ race     ] " << granted << " granted, " << cancelled << " cancelled (" << released_again
              << " granted in the race and released again), no lock leaked\n";
}

// Timeouts racing the grant: a short timeout while the holder releases.
TEST(LockWaits, TimeoutRacingTheGrantNeverLeaksALock) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    const int64_t waiter_pid = backend_pid(waiter);
    Psql psql;
    for (int round = 0; round < 100; ++round) {
        Lock held = take(holder, key);
        auto pending = wait_for(waiter.get(), key, 1 + round % 5);
        std::this_thread::sleep_for(std::chrono::microseconds(200 * (round % 10)));
        held.reset();
        WaitResult result = pending.get();
        ASSERT_TRUE(result.status == ADVLOCK_OK || result.status == ADVLOCK_NOT_ACQUIRED) << result.message;
        ASSERT_EQ(advisory_locks_of(psql, waiter_pid), result.status == ADVLOCK_OK ? "granted" : "");
        result.lock.reset();
        ASSERT_EQ(advisory_locks_of(psql, waiter_pid), "");
    }
}

TEST(LockWaits, DeadlockIsReportedToOneWaiter) {
    const advlock_key first = test_key("1"), second = test_key("2");
    Session a = open_session(), b = open_session();
    Lock a_holds = take(a, first);
    Lock b_holds = take(b, second);
    auto a_waits = wait_for(a.get(), second, ADVLOCK_WAIT_FOREVER);
    auto b_waits = wait_for(b.get(), first, ADVLOCK_WAIT_FOREVER);
    // The server breaks the cycle by failing one wait; the other goes on until
    // the victim gives up its own lock.
    Psql psql;
    while (true) {
        if (a_waits.wait_for(std::chrono::milliseconds(10)) == std::future_status::ready) {
            WaitResult victim = a_waits.get();
            EXPECT_EQ(victim.status, ADVLOCK_EDEADLOCK) << victim.message;
            a_holds.reset();
            EXPECT_EQ(b_waits.get().status, ADVLOCK_OK);
            break;
        }
        if (b_waits.wait_for(std::chrono::milliseconds(10)) == std::future_status::ready) {
            WaitResult victim = b_waits.get();
            EXPECT_EQ(victim.status, ADVLOCK_EDEADLOCK) << victim.message;
            b_holds.reset();
            EXPECT_EQ(a_waits.get().status, ADVLOCK_OK);
            break;
        }
    }
}

TEST(LockWaits, OutOfRangeTimeoutIsEinval) {
    Session a = open_session();
    const advlock_key key = test_key();
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, a.get(), of_key(key), ADVLOCK_EXCLUSIVE, -2), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_lock(&lock, a.get(), of_key(key), ADVLOCK_EXCLUSIVE, int64_t{1} << 40), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("ADVLOCK_WAIT_FOREVER"), std::string::npos);
    EXPECT_EQ(advlock_session_lock(&lock, nullptr, of_key(key), ADVLOCK_EXCLUSIVE, 5), ADVLOCK_EINVAL);
}

TEST(LockWaits, ReentrantLockDoesNotWait) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock first, second;
    ASSERT_EQ(acquire(&first, a, key, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true), ADVLOCK_OK);
    ASSERT_EQ(acquire(&second, a, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, /*reentrant=*/true), ADVLOCK_OK);
    first.reset();
    EXPECT_EQ(take(b, key), nullptr);
    second.reset();
    EXPECT_NE(take(b, key), nullptr);
}
