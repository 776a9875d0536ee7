// A key taken through advlock appears in the server's pg_locks exactly where
// advlock_key_to_pg_locks says, and reads back to the same key.
#include <gtest/gtest.h>

#include <string>

#include "advlock.h"
#include "support/targets.hpp"
#include "support/key_vectors.hpp"
#include "support/test_postgres.hpp"

TEST(PgLocksMapping, ServerAgreesForEveryVector) {
    advlock_session_options options;
    ASSERT_EQ(advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION), ADVLOCK_OK);
    options.application_name = "advlock-pg-locks-mapping";
    advlock_session *session = nullptr;
    ASSERT_EQ(advlock_session_open(&session, advlock::test::postgres_url().c_str(), &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock::test::Psql psql;

    for (const auto &v : advlock::test::load_key_vectors().pg_locks) {
        const advlock_key key = v.is_pair ? advlock_key_pair(v.k1, v.k2) : advlock_key_bigint(v.bigint);
        advlock_lock *lock = nullptr;
        ASSERT_EQ(advlock_session_try_lock(&lock, session, advlock::test::of_key(key), ADVLOCK_EXCLUSIVE), ADVLOCK_OK);

        const auto rows = psql.query(
            "SELECT l.classid::text, l.objid::text, l.objsubid::text FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid "
            "WHERE l.locktype = 'advisory' AND a.application_name = $1 "
            "AND NOT (l.objsubid = 2 AND l.classid = 1633971307)",  // advlock's per-session sentinel
            {options.application_name});
        ASSERT_EQ(rows.size(), 1u);
        EXPECT_EQ(rows[0][0], std::to_string(v.classid));
        EXPECT_EQ(rows[0][1], std::to_string(v.objid));
        EXPECT_EQ(rows[0][2], std::to_string(v.objsubid));

        const advlock_pg_locks_key seen{static_cast<uint32_t>(std::stoul(rows[0][0])),
                                        static_cast<uint32_t>(std::stoul(rows[0][1])), std::stoi(rows[0][2])};
        advlock_key back;
        ASSERT_EQ(advlock_key_from_pg_locks(&back, &seen), ADVLOCK_OK);
        EXPECT_TRUE(advlock_key_equal(&back, &key));

        ASSERT_EQ(advlock_lock_release(lock), ADVLOCK_OK);
        advlock_lock_free(lock);
    }
    advlock_session_free(session);
}
