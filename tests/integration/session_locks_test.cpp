// Session locks on a real server: contention, re-entrancy, modes, release
// misuse, and what closing or losing the connection does.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "advlock.h"
#include "advlock.hpp"
#include "support/c_handles.hpp"

using namespace advlock::test;

TEST(SessionLocks, SecondSessionIsNotAcquiredUntilTheFirstReleases) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock held = take(a, key);
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(take(b, key), nullptr);
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    EXPECT_NE(take(b, key), nullptr);
}

TEST(SessionLocks, ReentrantReacquiringCountsAndEachHandleReleasesOnce) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock first, second;
    ASSERT_EQ(acquire(&first, a, key, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true), ADVLOCK_OK);
    ASSERT_EQ(acquire(&second, a, key, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true), ADVLOCK_OK);
    ASSERT_EQ(advlock_lock_release(first.get()), ADVLOCK_OK);
    EXPECT_EQ(take(b, key), nullptr) << "one release of two acquisitions freed the lock";
    ASSERT_EQ(advlock_lock_release(second.get()), ADVLOCK_OK);
    EXPECT_NE(take(b, key), nullptr);
}

TEST(SessionLocks, SharedHoldersExcludeOnlyExclusiveOnes) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session(), c = open_session();
    Lock shared_a = take(a, key, ADVLOCK_SHARED);
    Lock shared_b = take(b, key, ADVLOCK_SHARED);
    ASSERT_NE(shared_a, nullptr);
    ASSERT_NE(shared_b, nullptr);
    EXPECT_EQ(take(c, key, ADVLOCK_EXCLUSIVE), nullptr);
    shared_a.reset();
    shared_b.reset();
    Lock exclusive = take(c, key, ADVLOCK_EXCLUSIVE);
    ASSERT_NE(exclusive, nullptr);
    EXPECT_EQ(take(a, key, ADVLOCK_SHARED), nullptr);
}

TEST(SessionLocks, PairAndBigintKeysAreDifferentLocks) {
    Session a = open_session(), b = open_session();
    Lock pair = take(a, advlock_key_pair(0, 424242));
    ASSERT_NE(pair, nullptr);
    EXPECT_NE(take(b, advlock_key_bigint(424242)), nullptr);
    EXPECT_EQ(take(b, advlock_key_pair(0, 424242)), nullptr);
}

TEST(SessionLocks, SecondReleaseIsMisuse) {
    Session a = open_session();
    Lock held = take(a, test_key());
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("already released"), std::string::npos);
}

TEST(SessionLocks, ClosingTheSessionReleasesItsLocksAndLaterReleasesAreMisuse) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock held = take(a, key);
    ASSERT_NE(held, nullptr);
    a.reset();  // closes the connection; the lock handle outlives the session handle
    EXPECT_NE(take_waiting(b, key), nullptr);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("session was closed"), std::string::npos);
}

TEST(SessionLocks, FreeingAnUnreleasedLockReleasesItSoon) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock held = take(a, key);
    ASSERT_NE(held, nullptr);
    advlock_lock_free(held.release());  // hands the release to the session's watchdog: never blocks
    EXPECT_NE(take_waiting(b, key), nullptr) << "the release never reached the server";
}

TEST(SessionLocks, UnknownModeIsEinval) {
    Session a = open_session();
    const advlock_key key = test_key();
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, a.get(), of_key(key), static_cast<advlock_mode>(5)), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("mode 5"), std::string::npos);
}

TEST(SessionLocks, ReleaseAfterTheBackendWasTerminatedIsLost) {
    Session a = open_session("advlock-terminate-test");
    Lock held = take(a, test_key());
    ASSERT_NE(held, nullptr);
    advlock::test::Psql psql;
    ASSERT_EQ(psql.value("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                         "WHERE application_name = 'advlock-terminate-test'"),
              "1");
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
    EXPECT_NE(std::string(advlock_error_last()->message).find("terminating connection due to administrator command"),
              std::string::npos)
        << advlock_error_last()->message;
}

TEST(SessionLocks, ApplicationNameDefaultsToAdvlockAndCanBeSet) {
    advlock::test::Psql psql;
    Session named = open_session("nightly-report");
    EXPECT_EQ(psql.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'nightly-report'"), "1");

    advlock_session *session = nullptr;
    const std::string url = advlock::test::postgres_url() + "?application_name=from-url";
    ASSERT_EQ(advlock_session_open(&session, url.c_str(), nullptr), ADVLOCK_OK);
    EXPECT_EQ(psql.value("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'from-url'"), "1");
    advlock_session_free(session);

    // Looked up by its own server pid: tests running in parallel open
    // sessions with the default name too.
    Session unnamed = open_session();
    EXPECT_EQ(psql.value("SELECT application_name FROM pg_stat_activity WHERE pid = " +
                         std::to_string(backend_pid(unnamed))),
              "advlock");
}

TEST(SessionLocks, WrongPasswordIsEconnectAndNeverEchoed) {
    std::string url = advlock::test::postgres_url();
    const std::string password = url.substr(url.find(':', 14) + 1, url.find('@') - url.find(':', 14) - 1);
    url.replace(url.find(password), password.size(), "Wr0ngPassw0rd");
    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, url.c_str(), nullptr), ADVLOCK_ECONNECT);
    const std::string message = advlock_error_last()->message;
    EXPECT_NE(message.find("password authentication failed"), std::string::npos) << message;
    EXPECT_EQ(message.find("Wr0ngPassw0rd"), std::string::npos) << message;
}

TEST(SessionLocksHpp, GuardsReleaseAtScopeExit) {
    const advlock::key key = advlock::key::from_name("session_locks_test.hpp_scope");
    advlock::session a = advlock::session::open(advlock::test::postgres_url());
    advlock::session b = advlock::session::open(advlock::test::postgres_url());
    {
        std::optional<advlock::lock> held = a.try_lock(key);
        ASSERT_TRUE(held.has_value());
        EXPECT_FALSE(b.try_lock(key).has_value());
    }
    // The guard frees its handle, and freeing hands the release to the
    // session's watchdog (it never blocks): the other session waits for it.
    EXPECT_TRUE(b.lock_within(key, 30000).has_value());
}

TEST(SessionLocksHpp, ReleaseTwiceAndUseAfterCloseThrowMisuse) {
    advlock::session a = advlock::session::open(advlock::test::postgres_url());
    std::optional<advlock::lock> held = a.try_lock(advlock::key::pair(7, 7), advlock::mode::shared);
    ASSERT_TRUE(held.has_value());
    held->release();
    EXPECT_THROW(held->release(), advlock::misuse);
    a.close();
    EXPECT_THROW(a.try_lock(advlock::key::pair(7, 7)), advlock::misuse);
}

TEST(SessionLocksHpp, WaitsChecksHoldersAndLostHandler) {
    const advlock::key key = advlock::key::from_name("session_locks_test.hpp_wait");
    advlock::session holder = advlock::session::open(advlock::test::postgres_url());
    advlock::session waiter = advlock::session::open(advlock::test::postgres_url());
    std::optional<advlock::lock> held = holder.lock_within(key, advlock::wait_forever);
    ASSERT_TRUE(held.has_value());
    EXPECT_FALSE(waiter.lock_within(key, 20).has_value());
    held->check();
    held->verify(true);
    holder.verify();

    const std::vector<advlock::holder> rows = waiter.holders(nullptr, &key);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].server_id, holder.server_id());
    EXPECT_TRUE(rows[0].granted);
    EXPECT_FALSE(rows[0].is_self);

    std::string why;
    std::mutex mutex;
    std::condition_variable fired;
    holder.on_lost([&](const std::string &message) {
        std::lock_guard<std::mutex> guard(mutex);
        why = message;
        fired.notify_all();
    });
    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {std::to_string(holder.server_id())});
    {
        std::unique_lock<std::mutex> lock(mutex);
        fired.wait(lock, [&] { return !why.empty(); });
    }
    EXPECT_NE(why.find("administrator command"), std::string::npos) << why;
    EXPECT_THROW(held->check(), advlock::lock_lost);
    EXPECT_THROW(holder.try_lock(key), advlock::lock_lost);
}

TEST(SessionLocksHpp, LockSetHoldsEveryKeyReleasesTogetherAndRefusesASecondRelease) {
    const std::vector<advlock::key> keys = {advlock::key::from_name("session_locks_test.hpp_set_a"),
                                            advlock::key::from_name("session_locks_test.hpp_set_b")};
    advlock::session a = advlock::session::open(advlock::test::postgres_url());
    advlock::session b = advlock::session::open(advlock::test::postgres_url());
    std::optional<advlock::lock_set> set = a.acquire_all(keys, advlock::mode::exclusive, {});
    ASSERT_TRUE(set.has_value());
    ASSERT_EQ(set->size(), 2u);
    EXPECT_EQ((*set)[1].key(), keys[1]);
    EXPECT_TRUE(set->held());
    set->check();
    set->verify(true);
    // All or nothing: b gets neither key of a set that overlaps a's.
    EXPECT_FALSE(b.acquire_all({keys[1], advlock::key::from_name("session_locks_test.hpp_set_c")},
                               advlock::mode::exclusive, {})
                     .has_value());
    EXPECT_TRUE(b.try_lock(advlock::key::from_name("session_locks_test.hpp_set_c")).has_value());
    set->release();
    EXPECT_FALSE(set->held());
    EXPECT_THROW(set->release(), advlock::misuse);
    EXPECT_THROW(set->check(), advlock::misuse);
    EXPECT_TRUE(b.acquire_all(keys, advlock::mode::exclusive, {}).has_value());
}

TEST(SessionLocksHpp, ALockSetDroppedWhileHeldIsReleased) {
    const std::vector<advlock::key> keys = {advlock::key::from_name("session_locks_test.hpp_drop_a"),
                                            advlock::key::from_name("session_locks_test.hpp_drop_b")};
    advlock::session a = advlock::session::open(advlock::test::postgres_url());
    advlock::session b = advlock::session::open(advlock::test::postgres_url());
    ASSERT_TRUE(a.acquire_all(keys, advlock::mode::exclusive, {}).has_value());  // dropped at once
    advlock::lock_options wait;
    wait.timeout_ms = 30000;
    EXPECT_TRUE(b.acquire_all(keys, advlock::mode::exclusive, wait).has_value());
}
