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

namespace {

// The timed transaction wait as another driver runs it: advlock_xact_wait_sql's
// steps through the test's own connection, failures mapped by SQLSTATE.
advlock_status wait_through_driver(Psql &psql, const advlock_key &key, int64_t timeout_ms) {
    const auto sql = [&](advlock_xact_wait_step step, const char *saved = nullptr) {
        char *text = nullptr;
        EXPECT_EQ(advlock_xact_wait_sql(&text, step, &key, ADVLOCK_EXCLUSIVE, timeout_ms, saved), ADVLOCK_OK)
            << advlock_error_last()->message;
        std::string copy = text ? text : "";
        advlock_free(text);
        return copy;
    };
    psql.query(sql(ADVLOCK_XACT_WAIT_SAVEPOINT));
    bool failed = false;
    std::string saved;
    try {
        saved = psql.query(sql(ADVLOCK_XACT_WAIT_SET_TIMEOUT)).at(0).at(0);
        psql.query(sql(ADVLOCK_XACT_WAIT_LOCK));
    } catch (const std::runtime_error &) {
        failed = true;
    }
    if (!failed) {
        psql.query(sql(ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT, saved.c_str()));
        psql.query(sql(ADVLOCK_XACT_WAIT_RELEASE));
        return ADVLOCK_OK;
    }
    psql.query(sql(ADVLOCK_XACT_WAIT_ROLLBACK));
    psql.query(sql(ADVLOCK_XACT_WAIT_RELEASE));
    return advlock_status_from_sqlstate(psql.last_sqlstate().c_str());
}

}  // namespace

TEST(XactLocks, TimedWaitStepsForOtherDriversBehaveAsTheCoreDoes) {
    const advlock_key key = test_key();
    Psql holder, waiter;
    holder.query("BEGIN");
    ASSERT_EQ(xact_try(holder, key), ADVLOCK_OK);
    waiter.query("BEGIN");
    waiter.query("SET LOCAL lock_timeout = '7s'");
    waiter.query("CREATE TEMP TABLE work_done (n int)");
    EXPECT_EQ(wait_through_driver(waiter, key, 30), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(waiter.value("SHOW lock_timeout"), "7s");
    waiter.query("INSERT INTO work_done VALUES (1)");  // the transaction still works
    holder.query("COMMIT");
    EXPECT_EQ(wait_through_driver(waiter, key, ADVLOCK_WAIT_FOREVER), ADVLOCK_OK);
    EXPECT_EQ(waiter.value("SHOW lock_timeout"), "7s");
    EXPECT_EQ(waiter.value("SELECT count(*) FROM work_done"), "1");
    Session session = open_session();
    EXPECT_EQ(take(session, key), nullptr) << "the lock belongs to the waiter's transaction";
    waiter.query("COMMIT");
    EXPECT_NE(take(session, key), nullptr);
    // A saved value that did not come from SET_TIMEOUT is refused, not spliced into SQL.
    char *text = nullptr;
    EXPECT_EQ(advlock_xact_wait_sql(&text, ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT, &key, ADVLOCK_EXCLUSIVE, 0,
                                    "0'); DROP TABLE x; --"),
              ADVLOCK_EINVAL);
    EXPECT_EQ(text, nullptr);
    EXPECT_EQ(advlock_xact_wait_sql(&text, ADVLOCK_XACT_WAIT_SET_TIMEOUT, &key, ADVLOCK_EXCLUSIVE, 0, nullptr),
              ADVLOCK_EINVAL)
        << "lock_timeout 0 would wait without limit: a zero wait is a try";
}

TEST(XactLocks, SqlstatesMapAsTheSessionsMapThem) {
    EXPECT_EQ(advlock_status_from_sqlstate("55P03"), ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(advlock_status_from_sqlstate("40P01"), ADVLOCK_EDEADLOCK);
    EXPECT_EQ(advlock_status_from_sqlstate("42501"), ADVLOCK_EPERMISSION);
    EXPECT_EQ(advlock_status_from_sqlstate("57014"), ADVLOCK_ECANCELED);
    EXPECT_EQ(advlock_status_from_sqlstate("53200"), ADVLOCK_ECAPACITY);
    EXPECT_EQ(advlock_status_from_sqlstate("08006"), ADVLOCK_ECONNECT);
    EXPECT_EQ(advlock_status_from_sqlstate("22012"), ADVLOCK_ESERVER);
    EXPECT_EQ(advlock_status_from_sqlstate(nullptr), ADVLOCK_ESERVER);
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
