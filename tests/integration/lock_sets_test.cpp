// Sets of locks, all or nothing, through the C ABI on the test PostgreSQL:
// a try that keeps every lock or none, a wait that leaves nothing behind when
// it fails, two sets taken in opposite orders that never deadlock, and the
// set's misuses refused before anything is taken.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

// count keys in ascending order, none another test uses.
std::vector<advlock_key> set_keys(int count) {
    const advlock_key base = test_key();
    const int64_t start = (base.bigint & 0x0000FFFFFFFFFF00) + 1;
    std::vector<advlock_key> keys;
    for (int i = 0; i < count; ++i) keys.push_back(advlock_key_bigint(start + i));
    return keys;
}

std::vector<advlock_lock *> raw(const std::vector<Lock> &locks) {
    std::vector<advlock_lock *> handles;
    for (const Lock &lock : locks) handles.push_back(lock.get());
    return handles;
}

// How many advisory locks the backend holds (granted).
int granted_count(Psql &psql, int64_t pid) {
    return std::stoi(psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks + " AND granted AND pid = $1::int",
                                {std::to_string(pid)}));
}

}  // namespace

TEST(LockSets, TryTakesEveryLockAndReleaseAllFreesThemInOneCall) {
    std::vector<advlock_key> keys = set_keys(3);
    keys.push_back(advlock_key_pair(keys[0].bigint & 0x7FFFFFFF, 7));  // a pair key in the same set
    const Session session = open_session();
    std::vector<Lock> locks;
    ASSERT_EQ(acquire_all(&locks, session, targets_of(keys)), ADVLOCK_OK) << advlock_error_last()->message;
    Psql psql;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 4);
    // Each handle is the lock of its target, in the targets' order.
    for (std::size_t i = 0; i < keys.size(); ++i) {
        advlock_key held{};
        ASSERT_EQ(advlock_lock_key(&held, locks[i].get()), ADVLOCK_OK);
        EXPECT_TRUE(advlock_key_equal(&held, &keys[i]));
    }
    const Session other = open_session();
    EXPECT_EQ(take(other, keys[3]), nullptr);
    const std::vector<advlock_lock *> handles = raw(locks);
    ASSERT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 0);
    EXPECT_NE(take(other, keys[3]), nullptr);
    // Released: a second release of any of them is misuse.
    EXPECT_EQ(advlock_lock_release(locks[0].get()), ADVLOCK_EMISUSE);
}

TEST(LockSets, TryGetsNoneWhenOneIsHeldElsewhere) {
    const std::vector<advlock_key> keys = set_keys(3);
    const Session holder = open_session();
    const Lock middle = take(holder, keys[1]);
    ASSERT_NE(middle, nullptr);
    const Session session = open_session();
    std::vector<Lock> locks;
    EXPECT_EQ(acquire_all(&locks, session, targets_of(keys)), ADVLOCK_NOT_ACQUIRED);
    // The first key was granted during the try and released in the same statement.
    Psql psql;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 0);
    const Session third = open_session();
    EXPECT_NE(take(third, keys[0]), nullptr);
    EXPECT_NE(take(third, keys[2]), nullptr);
}

TEST(LockSets, ASetOfOneIsTakenAndReleasedAsOneLock) {
    const std::vector<advlock_key> keys = set_keys(1);
    const Session session = open_session(), other = open_session();
    std::vector<Lock> locks;
    ASSERT_EQ(acquire_all(&locks, session, targets_of(keys)), ADVLOCK_OK) << advlock_error_last()->message;
    std::vector<Lock> refused;
    EXPECT_EQ(acquire_all(&refused, other, targets_of(keys), 100), ADVLOCK_NOT_ACQUIRED);
    const std::vector<advlock_lock *> handles = raw(locks);
    ASSERT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_OK);
    EXPECT_EQ(acquire_all(&refused, other, targets_of(keys)), ADVLOCK_OK);
}

TEST(LockSets, WaitGetsThemAllWhenTheLastHolderReleases) {
    const std::vector<advlock_key> keys = set_keys(4);
    const Session holder = open_session();
    Lock last = take(holder, keys[3]);
    ASSERT_NE(last, nullptr);
    const Session session = open_session();
    auto waited = std::async(std::launch::async, [&] {
        std::vector<Lock> locks;
        const advlock_status status = acquire_all(&locks, session, targets_of(keys), ADVLOCK_WAIT_FOREVER);
        return std::make_pair(status, std::move(locks));
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(session));
    last.reset();
    auto [status, locks] = waited.get();
    ASSERT_EQ(status, ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 4);
}

TEST(LockSets, FailedWaitReleasesTheLocksItHadTaken) {
    const std::vector<advlock_key> keys = set_keys(3);
    const Session holder = open_session();
    const Lock last = take(holder, keys[2]);  // the last in the set's order: the first two are granted, then it waits
    ASSERT_NE(last, nullptr);
    const Session session = open_session();
    std::vector<Lock> locks;
    EXPECT_EQ(acquire_all(&locks, session, targets_of(keys), 300), ADVLOCK_NOT_ACQUIRED);
    Psql psql;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 0);

    // Cancelled instead of timed out: the same.
    advlock_cancel_token *token = nullptr;
    ASSERT_EQ(advlock_cancel_token_new(&token), ADVLOCK_OK);
    auto waited = std::async(std::launch::async, [&] {
        return acquire_all(&locks, session, targets_of(keys), ADVLOCK_WAIT_FOREVER, ADVLOCK_EXCLUSIVE, 0, token);
    });
    wait_until_waiting(psql, backend_pid(session));
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 2);
    advlock_cancel_token_cancel(token);
    EXPECT_EQ(waited.get(), ADVLOCK_ECANCELED);
    advlock_cancel_token_free(token);
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 0);
    // The session is still usable.
    EXPECT_EQ(acquire_all(&locks, session, targets_of({keys[0], keys[1]})), ADVLOCK_OK);
}

// Without one order for every set, the two would soon wait for each other and
// the server would fail one wait with a deadlock.
TEST(LockSets, OppositeOrdersNeverDeadlock) {
    const std::vector<advlock_key> keys = set_keys(2);
    const std::vector<advlock_target> forward = targets_of(keys), backward = targets_of({keys[1], keys[0]});
    std::atomic<int> failures{0};
    const auto taker = [&](const std::vector<advlock_target> &targets) {
        const Session session = open_session();
        for (int round = 0; round < 150; ++round) {
            std::vector<Lock> locks;
            const advlock_status status = acquire_all(&locks, session, targets, ADVLOCK_WAIT_FOREVER);
            if (status != ADVLOCK_OK) {
                ++failures;
                ADD_FAILURE() << advlock_status_name(status) << ": " << advlock_error_last()->message;
                return;
            }
            const std::vector<advlock_lock *> handles = raw(locks);
            EXPECT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_OK);
        }
    };
    std::thread a(taker, forward), b(taker, backward);
    a.join();
    b.join();
    EXPECT_EQ(failures.load(), 0);
}

TEST(LockSets, SessionsOtherOwnersCountAsHolders) {
    const std::vector<advlock_key> keys = set_keys(2);
    const Session session = open_session();
    const Lock first = take(session, keys[0]);  // another handle of the same session
    ASSERT_NE(first, nullptr);
    std::vector<Lock> locks;
    EXPECT_EQ(acquire_all(&locks, session, targets_of(keys)), ADVLOCK_NOT_ACQUIRED);
    const Session other = open_session();
    EXPECT_NE(take(other, keys[1]), nullptr);  // the set left nothing on the server either
}

TEST(LockSets, ReentrantSetTakesAgainWhatTheThreadHolds) {
    const std::vector<advlock_key> keys = set_keys(3);
    const Session session = open_session();
    Lock held;
    ASSERT_EQ(acquire(&held, session, keys[1], ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true), ADVLOCK_OK);
    std::vector<Lock> locks;
    ASSERT_EQ(acquire_all(&locks, session, targets_of(keys), 5000, ADVLOCK_EXCLUSIVE, ADVLOCK_LOCK_REENTRANT),
              ADVLOCK_OK)
        << advlock_error_last()->message;
    const std::vector<advlock_lock *> handles = raw(locks);
    ASSERT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_OK);
    // The first acquisition still holds its key.
    const Session other = open_session();
    EXPECT_EQ(take(other, keys[1]), nullptr);
    EXPECT_NE(take(other, keys[0]), nullptr);
}

TEST(LockSets, SharedSetsShare) {
    const std::vector<advlock_key> keys = set_keys(2);
    const Session one = open_session(), two = open_session();
    std::vector<Lock> first, second;
    ASSERT_EQ(acquire_all(&first, one, targets_of(keys), 0, ADVLOCK_SHARED), ADVLOCK_OK);
    ASSERT_EQ(acquire_all(&second, two, targets_of(keys), 0, ADVLOCK_SHARED), ADVLOCK_OK);
    std::vector<Lock> exclusive;
    EXPECT_EQ(acquire_all(&exclusive, open_session(), targets_of(keys), 100), ADVLOCK_NOT_ACQUIRED);
}

TEST(LockSets, MisusesAreRefusedAndTakeNothing) {
    const std::vector<advlock_key> keys = set_keys(2);
    const Session session = open_session();
    std::vector<Lock> locks;
    advlock_lock *out[2] = {nullptr, nullptr};
    const std::vector<advlock_target> targets = targets_of(keys);
    EXPECT_EQ(advlock_session_acquire_all(out, session.get(), targets.data(), 0, ADVLOCK_EXCLUSIVE, nullptr),
              ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_acquire_all(out, session.get(), nullptr, 2, ADVLOCK_EXCLUSIVE, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_session_acquire_all(nullptr, session.get(), targets.data(), 2, ADVLOCK_EXCLUSIVE, nullptr),
              ADVLOCK_EINVAL);
    // The same lock twice: a name and its own key.
    const std::string name = "LockSets.twice";
    advlock_key name_key{};
    advlock_key_from_name(&name_key, name.c_str(), ADVLOCK_NUL_TERMINATED);
    const std::vector<advlock_target> twice = {*of_name(name), advlock_target_of_key(name_key)};
    EXPECT_EQ(acquire_all(&locks, session, twice), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("twice"), std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(acquire_all(&locks, session, targets, 0, ADVLOCK_EXCLUSIVE, ADVLOCK_LOCK_FENCED), ADVLOCK_EINVAL);
    advlock_lock_options options;
    advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION);
    options.slots = 2;
    EXPECT_EQ(advlock_session_acquire_all(out, session.get(), targets.data(), 2, ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_EINVAL);
    Psql psql;
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 0);

    // A release naming one released lock releases none of them.
    ASSERT_EQ(acquire_all(&locks, session, targets), ADVLOCK_OK);
    ASSERT_EQ(advlock_lock_release(locks[0].get()), ADVLOCK_OK);
    std::vector<advlock_lock *> handles = raw(locks);
    EXPECT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_EMISUSE);
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 1);
    handles = {locks[1].get(), locks[1].get()};
    EXPECT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_EMISUSE);
    EXPECT_EQ(advlock_lock_release_all(nullptr, 1), ADVLOCK_EINVAL);
    EXPECT_EQ(granted_count(psql, backend_pid(session)), 1);
}
