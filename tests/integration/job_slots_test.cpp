// Job slots through the C ABI on the test PostgreSQL (and the local backend):
// N holders at most, each in a slot of its own whose key follows the frozen
// rule psql computes too, a wait that gets the first slot to free, and bad
// slot counts refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

void create_fence_table(Psql &psql);  // fencing_test.cpp

namespace {

advlock_status take_slot(Lock *out, const Session &session, const advlock_key &key, unsigned slots,
                         int64_t timeout_ms = 0, unsigned version = ADVLOCK_LOCK_OPTIONS_VERSION) {
    advlock_lock_options options;
    EXPECT_EQ(advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION), ADVLOCK_OK);
    options.version = version;
    options.slots = slots;
    options.timeout_ms = timeout_ms;
    return acquire_with(out, session, key, options);
}

unsigned slot_of(const Lock &lock) {
    unsigned slot = 99;
    EXPECT_EQ(advlock_lock_slot(&slot, lock.get()), ADVLOCK_OK) << advlock_error_last()->message;
    return slot;
}

advlock_key slot_key(const advlock_key &key, unsigned slot) {
    advlock_key out{};
    EXPECT_EQ(advlock_key_slot(&out, &key, slot), ADVLOCK_OK) << advlock_error_last()->message;
    return out;
}

std::string key_text(const advlock_key &key) {
    char text[ADVLOCK_KEY_TEXT_SIZE];
    advlock_key_format(text, sizeof text, &key);
    return text;
}

}  // namespace

TEST(JobSlots, ThreeHoldersTakeThreeDistinctSlotsAndAFourthIsRefused) {
    const advlock_key key = test_key();
    std::vector<Session> sessions;
    for (int i = 0; i < 4; ++i) sessions.push_back(open_session());
    std::vector<Lock> held(3);
    std::set<unsigned> slots;
    Psql psql;
    for (int i = 0; i < 3; ++i) {
        ASSERT_EQ(take_slot(&held[i], sessions[i], key, 3), ADVLOCK_OK) << advlock_error_last()->message;
        const unsigned slot = slot_of(held[i]);
        slots.insert(slot);
        // The server holds the slot's key, and the handle says which.
        advlock_key on_server{};
        ASSERT_EQ(advlock_lock_key(&on_server, held[i].get()), ADVLOCK_OK);
        const advlock_key expected = slot_key(key, slot);
        EXPECT_TRUE(advlock_key_equal(&on_server, &expected));
        advlock_pg_locks_key pg{};
        advlock_key_to_pg_locks(&pg, &expected);
        EXPECT_EQ(psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                                 " AND granted AND pid = $1::int AND classid = $2::oid AND objid = $3::oid",
                             {std::to_string(backend_pid(sessions[i])), std::to_string(pg.classid),
                              std::to_string(pg.objid)}),
                  "1");
    }
    EXPECT_EQ(slots, (std::set<unsigned>{1, 2, 3}));
    Lock fourth;
    EXPECT_EQ(take_slot(&fourth, sessions[3], key, 3), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(fourth, nullptr);
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(sessions[3])), "");
    // A timed wait that no slot frees for runs out the same way.
    EXPECT_EQ(take_slot(&fourth, sessions[3], key, 3, 250), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(sessions[3])), "");
    // A plain lock of the key itself is none of the slots.
    Lock plain = take(sessions[3], key);
    EXPECT_TRUE(plain);
    EXPECT_EQ(slot_of(plain), 0u);
}

TEST(JobSlots, AWaitGetsTheSlotThatFrees) {
    const advlock_key key = test_key();
    std::vector<Session> sessions;
    for (int i = 0; i < 4; ++i) sessions.push_back(open_session());
    std::vector<Lock> held(3);
    for (int i = 0; i < 3; ++i) ASSERT_EQ(take_slot(&held[i], sessions[i], key, 3), ADVLOCK_OK);
    auto waited = std::async(std::launch::async, [&] {
        Lock lock;
        const advlock_status status = take_slot(&lock, sessions[3], key, 3, ADVLOCK_WAIT_FOREVER);
        return std::make_pair(status, status == ADVLOCK_OK ? slot_of(lock) : 0u);
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(sessions[3]));
    const unsigned freed = slot_of(held[1]);
    ASSERT_EQ(advlock_lock_release(held[1].get()), ADVLOCK_OK);
    const auto [status, slot] = waited.get();
    EXPECT_EQ(status, ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(slot, freed);
}

TEST(JobSlots, ACancelledSlotWaitEndsAndHoldsNothing) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock held;
    ASSERT_EQ(take_slot(&held, a, key, 2), ADVLOCK_OK);
    Lock other;
    ASSERT_EQ(take_slot(&other, a, key, 2), ADVLOCK_OK);  // a second handle of one session is another owner
    EXPECT_NE(slot_of(held), slot_of(other));
    auto waited = std::async(std::launch::async, [&] {
        Lock lock;
        return take_slot(&lock, b, key, 2, ADVLOCK_WAIT_FOREVER);
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(b));
    ASSERT_EQ(advlock_session_cancel(b.get()), ADVLOCK_OK);
    // A slice may have ended just before the cancel: cancel until the wait sees one.
    while (waited.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
        advlock_session_cancel(b.get());
    }
    EXPECT_EQ(waited.get(), ADVLOCK_ECANCELED);
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(b)), "");
}

TEST(JobSlots, SlotKeysFollowTheFrozenRuleThatPsqlComputes) {
    Psql psql;
    advlock_key named{};
    ASSERT_EQ(advlock_key_from_name(&named, "export", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    for (const advlock_key &key : {advlock_key_pair(100, 1), advlock_key_bigint(-42), named}) {
        for (const unsigned slot : {1u, 2u, 3u, ADVLOCK_SLOTS_MAX}) {
            const std::string in_psql = psql.value(
                "SELECT ('x' || left(encode(sha256(convert_to('advlock-slot:' || $1 || '/' || $2, 'UTF8')), 'hex'), "
                "16))::bit(64)::bigint",
                {key_text(key), std::to_string(slot)});
            EXPECT_EQ(key_text(slot_key(key, slot)), in_psql) << key_text(key) << " slot " << slot;
        }
    }
    // Frozen: these values must never change (every language and stored job relies on them).
    EXPECT_EQ(key_text(slot_key(advlock_key_pair(100, 1), 1)),
              psql.value("SELECT ('x' || left(encode(sha256('advlock-slot:100:1/1'::bytea), 'hex'), 16))::bit(64)::bigint"));
    advlock_key out{};
    EXPECT_EQ(advlock_key_slot(&out, &named, 0), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_slot(&out, &named, ADVLOCK_SLOTS_MAX + 1), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_slot(nullptr, &named, 1), ADVLOCK_EINVAL);
}

TEST(JobSlots, BadSlotCountsAndSharedSlotsAreRefusedAndOldOptionsIgnoreSlots) {
    const advlock_key key = test_key();
    Session a = open_session();
    Lock lock;
    EXPECT_EQ(take_slot(&lock, a, key, ADVLOCK_SLOTS_MAX + 1), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("slots"), std::string::npos);
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.slots = 3;
    advlock_lock *raw = nullptr;
    EXPECT_EQ(advlock_session_acquire(&raw, a.get(), of_key(key), ADVLOCK_SHARED, &options), ADVLOCK_EINVAL);
    // A version 1 struct ends before slots: whatever follows it is not read.
    ASSERT_EQ(take_slot(&lock, a, key, 3, 0, 1), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(slot_of(lock), 0u);
    lock.reset();
    // slots 1 is the lock itself.
    ASSERT_EQ(take_slot(&lock, a, key, 1), ADVLOCK_OK);
    EXPECT_EQ(slot_of(lock), 0u);
}

TEST(JobSlots, FencedSlotsIssueTokensPerSlot) {
    Psql psql;
    create_fence_table(psql);
    const advlock_key key = test_key();
    Session a = open_session();
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.slots = 2;
    options.flags = ADVLOCK_LOCK_FENCED;
    advlock_lock *raw = nullptr;
    ASSERT_EQ(advlock_session_acquire(&raw, a.get(), of_key(key), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    Lock lock(raw);
    int64_t token = 0;
    ASSERT_EQ(advlock_lock_fence_token(&token, lock.get()), ADVLOCK_OK);
    EXPECT_EQ(psql.value("SELECT token FROM public.advlock_fence WHERE lock_key = $1",
                         {key_text(slot_key(key, slot_of(lock)))}),
              std::to_string(token));
}

TEST(JobSlotsLocal, TheLocalBackendCountsSlotsToo) {
    char dir[] = "/tmp/advlock-slots-local.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string url = std::string("local:") + dir;
    {
        Session a = open_session(nullptr, url), b = open_session(nullptr, url), c = open_session(nullptr, url);
        const advlock_key key = advlock_key_bigint(77);
        Lock first, second, third;
        ASSERT_EQ(take_slot(&first, a, key, 2), ADVLOCK_OK) << advlock_error_last()->message;
        ASSERT_EQ(take_slot(&second, b, key, 2), ADVLOCK_OK) << advlock_error_last()->message;
        EXPECT_NE(slot_of(first), slot_of(second));
        EXPECT_EQ(take_slot(&third, c, key, 2), ADVLOCK_NOT_ACQUIRED);
        ASSERT_EQ(advlock_lock_release(first.get()), ADVLOCK_OK);
        EXPECT_EQ(take_slot(&third, c, key, 2), ADVLOCK_OK) << advlock_error_last()->message;
    }
    std::filesystem::remove_all(dir);
}
