// Transaction-scoped locks on the caller's own connection, and the SQL text
// advlock hands to other drivers.
#include <gtest/gtest.h>

#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

advlock_status xact_try(Psql &psql, const advlock_key &key, advlock_mode mode = ADVLOCK_EXCLUSIVE) {
    return advlock_xact_try_lock(psql.get(), &key, mode);
}

}  // namespace

TEST(XactLocks, CommitReleasesTheLock) {
    const advlock_key key = test_key();
    Psql mine, other;
    mine.query("BEGIN");
    ASSERT_EQ(xact_try(mine, key), ADVLOCK_OK) << advlock_error_last()->message;
    other.query("BEGIN");
    EXPECT_EQ(xact_try(other, key), ADVLOCK_NOT_ACQUIRED);
    other.query("ROLLBACK");
    mine.query("COMMIT");
    other.query("BEGIN");
    EXPECT_EQ(xact_try(other, key), ADVLOCK_OK);
    other.query("COMMIT");
}

TEST(XactLocks, RollbackReleasesTheLock) {
    const advlock_key key = test_key();
    Psql mine;
    Session session = open_session();
    mine.query("BEGIN");
    ASSERT_EQ(xact_try(mine, key), ADVLOCK_OK);
    EXPECT_EQ(take(session, key), nullptr);
    mine.query("ROLLBACK");
    EXPECT_NE(take(session, key), nullptr);
}

TEST(XactLocks, SharedXactLocksShare) {
    const advlock_key key = advlock_key_pair(31, 7);
    Psql a, b;
    a.query("BEGIN");
    b.query("BEGIN");
    EXPECT_EQ(xact_try(a, key, ADVLOCK_SHARED), ADVLOCK_OK);
    EXPECT_EQ(xact_try(b, key, ADVLOCK_SHARED), ADVLOCK_OK);
    Session session = open_session();
    EXPECT_EQ(take(session, key), nullptr);
    a.query("COMMIT");
    b.query("COMMIT");
}

TEST(XactLocks, OutsideATransactionIsMisuse) {
    Psql psql;
    const advlock_key key = test_key();
    EXPECT_EQ(xact_try(psql, key), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("BEGIN a transaction first"), std::string::npos);
    psql.query("BEGIN");
    EXPECT_THROW(psql.query("SELECT 1/0"), std::runtime_error);
    EXPECT_EQ(xact_try(psql, key), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("roll it back first"), std::string::npos);
    psql.query("ROLLBACK");
    EXPECT_EQ(advlock_xact_try_lock(nullptr, &key, ADVLOCK_EXCLUSIVE), ADVLOCK_EINVAL);
}

TEST(XactLocks, TimedWaitKeepsTheTransactionUsableAndItsLockTimeout) {
    const advlock_key key = test_key();
    Psql holder, waiter;
    holder.query("BEGIN");
    ASSERT_EQ(xact_try(holder, key), ADVLOCK_OK);

    waiter.query("BEGIN");
    waiter.query("SET LOCAL lock_timeout = '7s'");
    waiter.query("CREATE TEMP TABLE work_done (n int)");
    EXPECT_EQ(advlock_xact_lock(waiter.get(), &key, ADVLOCK_EXCLUSIVE, 30), ADVLOCK_NOT_ACQUIRED)
        << advlock_error_last()->message;
    EXPECT_EQ(waiter.value("SHOW lock_timeout"), "7s");
    waiter.query("INSERT INTO work_done VALUES (1)");  // the transaction still works

    holder.query("COMMIT");
    EXPECT_EQ(advlock_xact_lock(waiter.get(), &key, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER), ADVLOCK_OK)
        << advlock_error_last()->message;
    EXPECT_EQ(waiter.value("SHOW lock_timeout"), "7s");
    EXPECT_EQ(waiter.value("SELECT count(*) FROM work_done"), "1");
    Session session = open_session();
    EXPECT_EQ(take(session, key), nullptr);
    waiter.query("COMMIT");
    EXPECT_NE(take(session, key), nullptr);
}

TEST(XactLocks, SqlTextRunsOnTheServerForEveryKindAndKey) {
    Psql psql;
    char sql[ADVLOCK_SQL_TEXT_SIZE];
    for (const advlock_key key : {advlock_key_pair(INT32_MIN, INT32_MAX), advlock_key_bigint(INT64_MIN)}) {
        for (const advlock_mode mode : {ADVLOCK_EXCLUSIVE, ADVLOCK_SHARED}) {
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_TRY_LOCK, &key, mode), ADVLOCK_OK);
            EXPECT_EQ(psql.value(sql), "t") << sql;
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_UNLOCK, &key, mode), ADVLOCK_OK);
            EXPECT_EQ(psql.value(sql), "t") << sql;
            EXPECT_EQ(psql.value(sql), "f") << "a second unlock must say the lock was not held";
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_LOCK, &key, mode), ADVLOCK_OK);
            psql.query(sql);
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_UNLOCK, &key, mode), ADVLOCK_OK);
            EXPECT_EQ(psql.value(sql), "t");
            psql.query("BEGIN");
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_TRY_XACT_LOCK, &key, mode), ADVLOCK_OK);
            EXPECT_EQ(psql.value(sql), "t") << sql;
            ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_XACT_LOCK, &key, mode), ADVLOCK_OK);
            psql.query(sql);
            psql.query("COMMIT");
        }
    }
    const advlock_key key = advlock_key_pair(100, 1);
    ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_TRY_XACT_LOCK, &key, ADVLOCK_SHARED), ADVLOCK_OK);
    EXPECT_STREQ(sql, "SELECT pg_catalog.pg_try_advisory_xact_lock_shared(100, 1)");
}

TEST(XactLocks, SqlResultsMeanWhatTheySay) {
    const advlock_key key = advlock_key_bigint(5);
    EXPECT_EQ(advlock_sql_result(ADVLOCK_SQL_TRY_LOCK, &key, 1), ADVLOCK_OK);
    EXPECT_EQ(advlock_sql_result(ADVLOCK_SQL_TRY_XACT_LOCK, &key, 0), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(advlock_sql_result(ADVLOCK_SQL_UNLOCK, &key, 1), ADVLOCK_OK);
    EXPECT_EQ(advlock_sql_result(ADVLOCK_SQL_UNLOCK, &key, 0), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_sql_result(ADVLOCK_SQL_LOCK, &key, 1), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_sql_result(static_cast<advlock_sql_kind>(9), &key, 1), ADVLOCK_EINVAL);
    char small[8];
    EXPECT_EQ(advlock_sql(small, sizeof small, ADVLOCK_SQL_TRY_LOCK, &key, ADVLOCK_EXCLUSIVE), ADVLOCK_EINVAL);
}
