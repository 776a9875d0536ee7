// One lock, one owner: handles and threads sharing a session exclude each
// other as sessions do on the server (DESIGN.md §1). The matrix runs threads x
// sessions x modes on PostgreSQL and on the local backend, counting who is
// inside; overlap is asserted, never speed. Also: re-entry only when asked,
// waits for another handle honour timeout, cancel tokens and loss, and a
// thread waiting for itself is told so.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/overlap.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

struct TokenFree {
    void operator()(advlock_cancel_token *t) const { advlock_cancel_token_free(t); }
};
using Token = std::unique_ptr<advlock_cancel_token, TokenFree>;

Token new_token() {
    advlock_cancel_token *token = nullptr;
    EXPECT_EQ(advlock_cancel_token_new(&token), ADVLOCK_OK);
    return Token(token);
}

// Where a backend's sessions come from: PostgreSQL (the fixture) or the local
// flock backend in a directory of the test's own.
class LockOwnersOn : public ::testing::TestWithParam<std::string> {
protected:
    Session open() {
        if (GetParam() == "postgres") return open_session();
        return open_session(nullptr, "local:" + directory_.path());
    }
    TempDirectory directory_;
};

}  // namespace

INSTANTIATE_TEST_SUITE_P(Each, LockOwnersOn, ::testing::Values("postgres", "local"),
                         [](const ::testing::TestParamInfo<std::string> &info) { return info.param; });

TEST_P(LockOwnersOn, TwoHandlesOfOneSessionExcludeEachOther) {
    const advlock_key key = test_key(GetParam());
    Session session = open();
    Lock first = take(session, key);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(take(session, key), nullptr) << "a second exclusive handle on the same session";
    EXPECT_EQ(take(session, key, ADVLOCK_SHARED), nullptr) << "a shared handle beside an exclusive one";
    first.reset();
    Lock shared_a = take(session, key, ADVLOCK_SHARED), shared_b = take(session, key, ADVLOCK_SHARED);
    EXPECT_NE(shared_a, nullptr);
    EXPECT_NE(shared_b, nullptr) << "shared handles never conflict";
    EXPECT_EQ(take(session, key), nullptr) << "an exclusive handle beside shared ones";
    shared_a.reset();
    EXPECT_EQ(take(session, key), nullptr) << "one shared handle is still held";
    shared_b.reset();
    EXPECT_NE(take(session, key), nullptr);
}

TEST_P(LockOwnersOn, ThreadsTimesSessionsTimesModesNeverOverlap) {
    struct Case {
        int threads, sessions;
        bool by_trying, mixed;
    };
    const Case cases[] = {{8, 1, false, false}, {8, 1, true, false}, {8, 1, false, true},
                          {8, 2, false, true},  {4, 4, false, false}, {6, 3, true, true}};
    int index = 0;
    for (const Case &c : cases) {
        SCOPED_TRACE("threads " + std::to_string(c.threads) + ", sessions " + std::to_string(c.sessions) +
                     (c.by_trying ? ", trying" : ", waiting") + (c.mixed ? ", shared and exclusive" : ", exclusive"));
        const advlock_key key = test_key(GetParam() + std::to_string(index++));
        std::vector<Session> sessions;
        for (int s = 0; s < c.sessions; ++s) sessions.push_back(open());
        Overlap overlap;
        std::vector<std::thread> threads;
        for (int t = 0; t < c.threads; ++t) {
            const advlock_mode mode = c.mixed && t % 2 ? ADVLOCK_SHARED : ADVLOCK_EXCLUSIVE;
            threads.emplace_back(
                [&, t, mode] { work(sessions[t % c.sessions], key, mode, c.by_trying, 15, overlap); });
        }
        for (std::thread &t : threads) t.join();
        EXPECT_EQ(overlap.violations.load(), 0);
        EXPECT_EQ(overlap.entries.load(), c.threads * 15);
    }
}

TEST_P(LockOwnersOn, ReentryOnlyWhenAskedAndOnlyByTheSameThread) {
    const advlock_key key = test_key(GetParam());
    Session session = open();
    Lock outer, inner, other;
    ASSERT_EQ(acquire(&outer, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_OK);
    EXPECT_EQ(acquire(&inner, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_OK) << "reentrant re-entry";
    EXPECT_EQ(acquire(&other, session, key, ADVLOCK_EXCLUSIVE, 0, false), ADVLOCK_NOT_ACQUIRED)
        << "a non-reentrant handle of the same thread is another owner";
    std::async(std::launch::async, [&] {
        Lock theirs;
        EXPECT_EQ(acquire(&theirs, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_NOT_ACQUIRED)
            << "another thread's reentrant handle is another owner";
    }).get();
    ASSERT_EQ(advlock_lock_release(inner.get()), ADVLOCK_OK);
    std::async(std::launch::async, [&] {
        Lock theirs;
        EXPECT_EQ(acquire(&theirs, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_NOT_ACQUIRED)
            << "one release of two re-entries freed the lock";
    }).get();
    ASSERT_EQ(advlock_lock_release(outer.get()), ADVLOCK_OK);
    std::async(std::launch::async, [&] {
        Lock theirs;
        EXPECT_EQ(acquire(&theirs, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_OK);
    }).get();
}

TEST(LockOwners, ReentrantSharedThenExclusiveFollowsTheOtherOwners) {
    const advlock_key key = test_key();
    Session session = open_session();
    Lock shared, exclusive;
    ASSERT_EQ(acquire(&shared, session, key, ADVLOCK_SHARED, 0, true), ADVLOCK_OK);
    EXPECT_EQ(acquire(&exclusive, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_OK)
        << "the thread alone holds the key: its upgrade is granted, as on a session of its own";
    exclusive.reset();
    Lock theirs;
    std::async(std::launch::async, [&] {
        EXPECT_EQ(acquire(&theirs, session, key, ADVLOCK_SHARED, 0, true), ADVLOCK_OK);
    }).get();
    EXPECT_EQ(acquire(&exclusive, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_NOT_ACQUIRED)
        << "another thread holds it shared";
    std::async(std::launch::async, [&] { theirs.reset(); }).get();
    EXPECT_EQ(acquire(&exclusive, session, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, true), ADVLOCK_OK);
    // Another session is excluded by the upgrade as by any exclusive lock.
    Session other = open_session();
    EXPECT_EQ(take(other, key, ADVLOCK_SHARED), nullptr);
}

TEST_P(LockOwnersOn, WaitingForItsOwnHandleIsDeadlockNotAHang) {
    const advlock_key key = test_key(GetParam());
    Session session = open();
    Lock held = take(session, key, ADVLOCK_SHARED);
    ASSERT_NE(held, nullptr);
    Lock again;
    EXPECT_EQ(acquire(&again, session, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER), ADVLOCK_EDEADLOCK);
    EXPECT_NE(std::string(advlock_error_last()->message).find("this thread already holds it"), std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(acquire(&again, session, key, ADVLOCK_EXCLUSIVE, 0), ADVLOCK_NOT_ACQUIRED) << "a try only says no";
    EXPECT_EQ(again, nullptr);
    // The failed attempts left nothing behind: another session takes it once released.
    held.reset();
    Session other = open();
    EXPECT_NE(take(other, key), nullptr);
}

TEST(LockOwners, AnOwnerIdStandsForTheCallingThread) {
    // Two runtime threads (virtual threads, say) on one OS thread: their ids
    // keep them apart; one id on two OS threads is one owner.
    const advlock_key key = test_key();
    Session session = open_session();
    Lock first, second;
    ASSERT_EQ(acquire(&first, session, key, ADVLOCK_EXCLUSIVE, 0, true, nullptr, nullptr, 41), ADVLOCK_OK);
    EXPECT_EQ(acquire(&second, session, key, ADVLOCK_EXCLUSIVE, 0, true, nullptr, nullptr, 42), ADVLOCK_NOT_ACQUIRED)
        << "another runtime thread on the same OS thread is another owner";
    EXPECT_EQ(acquire(&second, session, key, ADVLOCK_EXCLUSIVE, 0, true), ADVLOCK_NOT_ACQUIRED)
        << "the OS thread itself is another owner too";
    EXPECT_EQ(acquire(&second, session, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, false, nullptr, nullptr, 41),
              ADVLOCK_EDEADLOCK)
        << "runtime thread 41 would wait for its own handle";
    std::async(std::launch::async, [&] {
        Lock again;
        EXPECT_EQ(acquire(&again, session, key, ADVLOCK_EXCLUSIVE, 0, true, nullptr, nullptr, 41), ADVLOCK_OK)
            << "runtime thread 41, moved to another OS thread, re-enters its own lock";
    }).get();
}

TEST(LockOwners, TwoThreadsUpgradingFromSharedAreADeadlockForOneOfThem) {
    const advlock_key key = test_key();
    Session session = open_session();
    std::atomic<int> ready{0};
    const auto upgrade = [&] {
        Lock shared, exclusive;
        EXPECT_EQ(acquire(&shared, session, key, ADVLOCK_SHARED, 0, true), ADVLOCK_OK);
        ++ready;
        while (ready.load() < 2) std::this_thread::yield();
        const advlock_status status = acquire(&exclusive, session, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, true);
        shared.reset();  // the victim lets go, so the other upgrade is granted
        return status;
    };
    auto first = std::async(std::launch::async, upgrade), second = std::async(std::launch::async, upgrade);
    const advlock_status a = first.get(), b = second.get();
    EXPECT_TRUE((a == ADVLOCK_EDEADLOCK && b == ADVLOCK_OK) || (a == ADVLOCK_OK && b == ADVLOCK_EDEADLOCK))
        << advlock_status_name(a) << " and " << advlock_status_name(b);
}

TEST_P(LockOwnersOn, WaitForAnotherHandleHonoursTimeoutTokenAndSessionCancel) {
    const advlock_key key = test_key(GetParam());
    Session session = open();
    Lock held = take(session, key);
    ASSERT_NE(held, nullptr);
    const auto on_other_thread = [&](int64_t timeout_ms, advlock_cancel_token *token) {
        return std::async(std::launch::async, [&, timeout_ms, token] {
            Lock lock;
            const advlock_status status = acquire(&lock, session, key, ADVLOCK_EXCLUSIVE, timeout_ms, false, token);
            EXPECT_EQ(lock == nullptr, status != ADVLOCK_OK);
            return status;
        });
    };
    EXPECT_EQ(on_other_thread(30, nullptr).get(), ADVLOCK_NOT_ACQUIRED);

    // Two waiters; cancelling one's token ends that wait only.
    Token first_token = new_token(), second_token = new_token();
    auto first = on_other_thread(ADVLOCK_WAIT_FOREVER, first_token.get());
    auto second = on_other_thread(ADVLOCK_WAIT_FOREVER, second_token.get());
    ASSERT_EQ(advlock_cancel_token_cancel(first_token.get()), ADVLOCK_OK);
    EXPECT_EQ(first.get(), ADVLOCK_ECANCELED);
    // A cancelled token ends a wait that starts after the cancel, at once.
    EXPECT_EQ(on_other_thread(ADVLOCK_WAIT_FOREVER, first_token.get()).get(), ADVLOCK_ECANCELED);
    held.reset();
    EXPECT_EQ(second.get(), ADVLOCK_OK) << "the other waiter went on waiting and got the lock";

    // advlock_session_cancel ends every wait of the session.
    held = take(session, key);
    ASSERT_NE(held, nullptr);
    auto third = on_other_thread(ADVLOCK_WAIT_FOREVER, nullptr);
    // No way to see a local waiter from outside: cancel until it has ended.
    while (third.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
        ASSERT_EQ(advlock_session_cancel(session.get()), ADVLOCK_OK);
    }
    EXPECT_EQ(third.get(), ADVLOCK_ECANCELED);
}

TEST(LockOwners, TokenCancelsAWaitOnTheServerAndLeavesNothingBehind) {
    const advlock_key key = test_key();
    Session holder = open_session(), waiter = open_session();
    Lock held = take(holder, key);
    ASSERT_NE(held, nullptr);
    Token token = new_token();
    auto pending = std::async(std::launch::async, [&] {
        Lock lock;
        return acquire(&lock, waiter, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, false, token.get());
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(waiter));
    ASSERT_EQ(advlock_cancel_token_cancel(token.get()), ADVLOCK_OK);
    EXPECT_EQ(pending.get(), ADVLOCK_ECANCELED);
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(waiter)), "");
    held.reset();
    EXPECT_NE(take(waiter, key), nullptr) << "the session is usable after the cancelled wait";
}

TEST(LockOwners, AWaitQueuedBehindAnotherThreadsServerWaitKeepsItsOwnLimits) {
    // Thread A of a session waits on the server for a lock another session
    // holds; the connection is A's meanwhile. Thread B's wait for another key
    // on the same session still ends by its own timeout and its own token.
    const advlock_key busy = test_key("busy"), other = test_key("other");
    Session holder = open_session(), shared = open_session();
    Lock held = take(holder, busy);
    ASSERT_NE(held, nullptr);
    Token a_token = new_token();
    auto a = std::async(std::launch::async, [&] {
        Lock lock;
        return acquire(&lock, shared, busy, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, false, a_token.get());
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(shared));
    Lock lock;
    EXPECT_EQ(acquire(&lock, shared, other, ADVLOCK_EXCLUSIVE, 30), ADVLOCK_NOT_ACQUIRED)
        << "the timeout ran out while the connection was busy";
    Token b_token = new_token();
    auto b = std::async(std::launch::async, [&] {
        Lock theirs;
        return acquire(&theirs, shared, other, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER, false, b_token.get());
    });
    ASSERT_EQ(advlock_cancel_token_cancel(b_token.get()), ADVLOCK_OK);
    EXPECT_EQ(b.get(), ADVLOCK_ECANCELED);
    EXPECT_EQ(a.wait_for(std::chrono::milliseconds(0)), std::future_status::timeout)
        << "cancelling B's token ended A's wait";
    ASSERT_EQ(advlock_cancel_token_cancel(a_token.get()), ADVLOCK_OK);
    EXPECT_EQ(a.get(), ADVLOCK_ECANCELED);
    EXPECT_NE(take(shared, other), nullptr) << "nothing was left behind";
}

TEST(LockOwners, LossReachesEveryOwnerAndEveryWaiter) {
    const advlock_key key = test_key();
    Session session = open_session();
    Lock a = take(session, key, ADVLOCK_SHARED), b = take(session, key, ADVLOCK_SHARED);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    auto waiter = std::async(std::launch::async, [&] {
        Lock lock;
        return acquire(&lock, session, key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER);
    });
    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {std::to_string(backend_pid(session))});
    EXPECT_EQ(waiter.get(), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_check(a.get()), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_check(b.get()), ADVLOCK_ELOST);
}

TEST(LockOwners, HoldersShowASessionOnceWhateverItsHandles) {
    const advlock_key key = test_key();
    Session session = open_session();
    Lock a = take(session, key, ADVLOCK_SHARED), b = take(session, key, ADVLOCK_SHARED);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    advlock_holders *raw = nullptr;
    ASSERT_EQ(advlock_session_holders(&raw, session.get(), nullptr, of_key(key)), ADVLOCK_OK)
        << advlock_error_last()->message;
    Holders holders(raw);
    EXPECT_EQ(advlock_holders_count(holders.get()), 1u);
}

TEST(LockOwners, OptionsAreChecked) {
    const advlock_key key = test_key();
    Session session = open_session();
    advlock_lock_options options;
    EXPECT_EQ(advlock_lock_options_init(&options, 99), ADVLOCK_EINVAL);
    ASSERT_EQ(advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION), ADVLOCK_OK);
    EXPECT_EQ(options.timeout_ms, 0) << "the default is a try: a forgotten timeout never waits forever";
    advlock_lock *lock = reinterpret_cast<advlock_lock *>(0x1);
    options.flags = 0x80u;  // a bit no version knows
    EXPECT_EQ(advlock_session_acquire(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_EINVAL);
    EXPECT_EQ(lock, nullptr);
    options.flags = 0u;
    options.timeout_ms = -2;
    EXPECT_EQ(advlock_session_acquire(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_EINVAL);
    options.version = 7;
    EXPECT_EQ(advlock_session_acquire(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_acquire(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, nullptr), ADVLOCK_OK)
        << "NULL options: a try with the defaults";
    advlock_lock_free(lock);
    EXPECT_EQ(advlock_cancel_token_cancel(nullptr), ADVLOCK_EINVAL);
    advlock_cancel_token_free(nullptr);
}
