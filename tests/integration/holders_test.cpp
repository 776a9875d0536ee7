// Listing holders and waiters: names from the registry, who and since when,
// what a role without pg_read_all_stats sees, and never a trial lock.
#include <gtest/gtest.h>

#include <future>
#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

struct RegistryFree {
    void operator()(advlock_registry *r) const { advlock_registry_free(r); }
};

Holders list(const Session &session, const advlock_registry *registry, const advlock_key *only) {
    advlock_holders *holders = nullptr;
    const advlock_target target = only ? advlock_target_of_key(*only) : advlock_target{};
    EXPECT_EQ(advlock_session_holders(&holders, session.get(), registry, only ? &target : nullptr), ADVLOCK_OK)
        << advlock_error_last()->message;
    return Holders(holders);
}

}  // namespace

TEST(Holders, ShowHolderAndWaiterWithRegistryNames) {
    const advlock_key key = advlock_key_pair(7301, 1);
    advlock_registry *raw = nullptr;
    const char text[] = "[locks.holders_test_job]\nkey = [7301, 1]\n";
    ASSERT_EQ(advlock_registry_parse(&raw, text, sizeof text - 1, "holders.toml"), ADVLOCK_OK);
    std::unique_ptr<advlock_registry, RegistryFree> registry(raw);

    Session holder = open_session("holders-test-holder"), waiter = open_session("holders-test-waiter");
    Lock held = take(holder, key);
    auto pending = std::async(std::launch::async, [&] {
        advlock_lock *lock = nullptr;
        const advlock_status status = advlock_session_lock(&lock, waiter.get(), of_key(key), ADVLOCK_SHARED, ADVLOCK_WAIT_FOREVER);
        advlock_lock_free(lock);
        return status;
    });
    Psql psql;
    wait_until_waiting(psql, backend_pid(waiter));

    Holders rows = list(holder, registry.get(), &key);
    ASSERT_EQ(advlock_holders_count(rows.get()), 2u);
    const advlock_holder *first = advlock_holders_at(rows.get(), 0);
    const advlock_holder *second = advlock_holders_at(rows.get(), 1);
    EXPECT_EQ(advlock_holders_at(rows.get(), 2), nullptr);

    EXPECT_TRUE(((first->flags & ADVLOCK_HOLDER_GRANTED) != 0));
    EXPECT_TRUE(advlock_key_equal(&first->target.key, &key));
    EXPECT_STREQ(first->lock_name, "holders_test_job");
    EXPECT_EQ(first->mode, ADVLOCK_EXCLUSIVE);
    EXPECT_EQ(first->server_id, backend_pid(holder));
    EXPECT_TRUE(((first->flags & ADVLOCK_HOLDER_SELF) != 0));
    EXPECT_STREQ(first->application_name, "holders-test-holder");
    EXPECT_STREQ(first->user, "postgres");
    EXPECT_STREQ(first->client_addr, "127.0.0.1");
    EXPECT_GT(first->backend_start_unix_us, 1600000000LL * 1000000);
    EXPECT_FALSE(((first->flags & ADVLOCK_HOLDER_DETAILS_HIDDEN) != 0));

    EXPECT_FALSE(((second->flags & ADVLOCK_HOLDER_GRANTED) != 0));
    EXPECT_EQ(second->mode, ADVLOCK_SHARED);
    EXPECT_EQ(second->server_id, backend_pid(waiter));
    EXPECT_FALSE(((second->flags & ADVLOCK_HOLDER_SELF) != 0));
    EXPECT_STREQ(second->application_name, "holders-test-waiter");
    EXPECT_GT(second->wait_start_unix_us, 1600000000LL * 1000000);  // PostgreSQL 14+

    held.reset();
    EXPECT_EQ(pending.get(), ADVLOCK_OK);
}

TEST(Holders, ListingTakesNoLockAndSeesEveryKey) {
    Session holder = open_session(), looker = open_session();
    const advlock_key a = test_key("a"), b = advlock_key_pair(7302, 2);
    Lock la = take(holder, a), lb = take(holder, b);
    Holders rows = list(looker, nullptr, nullptr);
    int mine = 0;
    for (size_t i = 0; i < advlock_holders_count(rows.get()); ++i) {
        const advlock_holder *row = advlock_holders_at(rows.get(), i);
        if (row->server_id == backend_pid(holder)) {
            ++mine;
            EXPECT_EQ(row->lock_name, nullptr);
        }
    }
    EXPECT_EQ(mine, 2);
    Psql psql;
    EXPECT_EQ(advisory_locks_of(psql, backend_pid(looker)), "");
    // The holder still holds both: looking made nobody lose or skip anything.
    EXPECT_EQ(take(looker, a), nullptr);
}

TEST(Holders, RoleWithoutStatsPrivilegeSeesHiddenDetails) {
    Psql admin;
    admin.query("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'advlock_plain') THEN "
                "CREATE ROLE advlock_plain LOGIN PASSWORD 'plain-pw'; END IF; END $$");
    const std::string url = with_credentials(postgres_url(), "advlock_plain", "plain-pw");
    Session plain = open_session("holders-plain", url);
    ASSERT_NE(plain, nullptr);

    Session holder = open_session("holders-hidden-holder");
    const advlock_key key = test_key();
    Lock held = take(holder, key);
    Holders rows = list(plain, nullptr, &key);
    ASSERT_EQ(advlock_holders_count(rows.get()), 1u);
    const advlock_holder *row = advlock_holders_at(rows.get(), 0);
    EXPECT_TRUE(((row->flags & ADVLOCK_HOLDER_GRANTED) != 0));
    EXPECT_EQ(row->server_id, backend_pid(holder));
    EXPECT_TRUE(((row->flags & ADVLOCK_HOLDER_DETAILS_HIDDEN) != 0));
    EXPECT_EQ(row->client_addr, nullptr);
    EXPECT_EQ(row->backend_start_unix_us, 0);
}

TEST(Holders, NullArgumentsAreEinval) {
    advlock_holders *holders = nullptr;
    EXPECT_EQ(advlock_session_holders(&holders, nullptr, nullptr, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_holders_count(nullptr), 0u);
    EXPECT_EQ(advlock_holders_at(nullptr, 0), nullptr);
    advlock_holders_free(nullptr);
}
