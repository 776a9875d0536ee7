// Fencing tokens through the C ABI on the test PostgreSQL: tokens issued with
// the grant grow, the check in the job's own transaction passes only for the
// latest, and a checked transaction still open holds the next holder's token
// back until it ends (so committed work of two holders cannot overlap).
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <string>
#include <unistd.h>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

}  // namespace

// advlock_sql_fence's statements, run so that tests creating the table at the
// same moment (ctest runs them in parallel) take turns: two CREATE OR REPLACE
// FUNCTION of one function at once make the server fail one ("tuple
// concurrently updated").
void create_fence_table(Psql &psql) {
    char *sql = nullptr;
    ASSERT_EQ(advlock_sql_fence(&sql), ADVLOCK_OK) << advlock_error_last()->message;
    const std::string ddl = sql;
    advlock_free(sql);
    psql.script("SET client_min_messages = warning; BEGIN; SELECT pg_advisory_xact_lock(hashtext('advlock tests: "
                "fence ddl')); " + ddl + " COMMIT;");
}

namespace {

class Fencing : public ::testing::Test {
protected:
    void SetUp() override { create_fence_table(psql_); }

    // A fenced acquisition: a try (timeout 0) or a wait.
    static advlock_status take_fenced(Lock *out, const Session &session, const advlock_key &key,
                                      int64_t timeout_ms = 0) {
        advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
        options.flags = ADVLOCK_LOCK_FENCED;
        options.timeout_ms = timeout_ms;
        return acquire_with(out, session, key, options);
    }

    // The check in a transaction of its own on `data`, rolled back after.
    static advlock_status check_in_transaction(Psql &data, const advlock_key &key, int64_t token) {
        data.script("BEGIN");
        const advlock_status status = advlock_fence_check(data.get(), &key, token);
        data.script("ROLLBACK");
        return status;
    }

    static int64_t token_of(const Lock &lock) {
        int64_t token = 0;
        EXPECT_EQ(advlock_lock_fence_token(&token, lock.get()), ADVLOCK_OK) << advlock_error_last()->message;
        return token;
    }

    Psql psql_;
};

}  // namespace

TEST_F(Fencing, EveryGrantIssuesAGreaterTokenWhetherTriedOrWaitedFor) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock first, second, third;
    ASSERT_EQ(take_fenced(&first, a, key), ADVLOCK_OK) << advlock_error_last()->message;
    const int64_t t1 = token_of(first);
    Lock refused;
    EXPECT_EQ(take_fenced(&refused, b, key), ADVLOCK_NOT_ACQUIRED);  // held: no token issued
    ASSERT_EQ(advlock_lock_release(first.get()), ADVLOCK_OK);
    ASSERT_EQ(take_fenced(&second, b, key), ADVLOCK_OK) << advlock_error_last()->message;
    const int64_t t2 = token_of(second);
    EXPECT_EQ(t2, t1 + 1);  // the refused try took none
    ASSERT_EQ(advlock_lock_release(second.get()), ADVLOCK_OK);
    ASSERT_EQ(take_fenced(&third, a, key, 30000), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_GT(token_of(third), t2);
    advlock_key held{};
    ASSERT_EQ(advlock_lock_key(&held, third.get()), ADVLOCK_OK);
    EXPECT_TRUE(advlock_key_equal(&held, &key));
    char text[ADVLOCK_KEY_TEXT_SIZE];
    advlock_key_format(text, sizeof text, &key);
    EXPECT_EQ(psql_.value("SELECT token FROM public.advlock_fence WHERE lock_key = $1", {text}),
              std::to_string(token_of(third)));
}

TEST_F(Fencing, TheCheckPassesForTheLatestTokenAndFencesOutAnOlderOne) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock old_holder;
    ASSERT_EQ(take_fenced(&old_holder, a, key), ADVLOCK_OK) << advlock_error_last()->message;
    const int64_t old_token = token_of(old_holder);

    Psql data;
    EXPECT_EQ(check_in_transaction(data, key, old_token), ADVLOCK_OK) << advlock_error_last()->message;
    ASSERT_EQ(advlock_lock_release(old_holder.get()), ADVLOCK_OK);
    Lock new_holder;
    ASSERT_EQ(take_fenced(&new_holder, b, key), ADVLOCK_OK) << advlock_error_last()->message;
    data.script("BEGIN");
    EXPECT_EQ(advlock_fence_check(data.get(), &key, old_token), ADVLOCK_EFENCED);
    EXPECT_STREQ(advlock_error_last()->sqlstate, "55T01");
    EXPECT_NE(std::string(advlock_error_last()->message).find("stale"), std::string::npos)
        << advlock_error_last()->message;
    data.script("ROLLBACK");
    EXPECT_EQ(check_in_transaction(data, key, token_of(new_holder)), ADVLOCK_OK) << advlock_error_last()->message;
    // A token from nowhere (never issued, or another lock's) fails closed too.
    const advlock_key never = test_key(".never");
    EXPECT_EQ(check_in_transaction(data, never, 1), ADVLOCK_EFENCED);
}

TEST_F(Fencing, AnOpenCheckedTransactionHoldsTheNextTokenBackUntilItEnds) {
    const advlock_key key = test_key();
    Session a = open_session(), b = open_session();
    Lock old_holder;
    ASSERT_EQ(take_fenced(&old_holder, a, key), ADVLOCK_OK) << advlock_error_last()->message;
    const int64_t old_token = token_of(old_holder);
    Psql data;
    data.script("BEGIN");
    ASSERT_EQ(advlock_fence_check(data.get(), &key, old_token), ADVLOCK_OK) << advlock_error_last()->message;
    // The lock is lost (here: its session ends) while the old job's
    // transaction is still open.
    a.reset();
    old_holder.reset();
    advlock_pg_locks_key pg{};
    ASSERT_EQ(advlock_key_to_pg_locks(&pg, &key), ADVLOCK_OK);
    while (psql_.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                           " AND classid = $1::oid AND objid = $2::oid AND objsubid = $3::int",
                       {std::to_string(pg.classid), std::to_string(pg.objid), std::to_string(pg.objsubid)}) != "0") {
    }  // the server frees the old session's lock on its own time

    // A try must not start new work before the old transaction ends: not
    // acquired, and nothing left held.
    Lock tried;
    const advlock_status tried_status = take_fenced(&tried, b, key);
    EXPECT_EQ(tried_status, ADVLOCK_NOT_ACQUIRED) << advlock_error_last()->message;
    tried.reset();
    EXPECT_EQ(advisory_locks_of(psql_, backend_pid(b)), "");

    // A wait waits for the old transaction, then gets the next token.
    const int64_t b_pid = backend_pid(b);
    auto waited = std::async(std::launch::async, [&] {
        Lock lock;
        const advlock_status status = take_fenced(&lock, b, key, ADVLOCK_WAIT_FOREVER);
        const int64_t token = status == ADVLOCK_OK ? token_of(lock) : -1;
        return std::make_pair(status, token);
    });
    // Waiting on the fence row (a tuple or transaction lock), holding the
    // advisory lock; a wait that ends first did not wait for the old work.
    bool waited_for_the_row = false;
    while (!waited_for_the_row && waited.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
        waited_for_the_row =
            psql_.value("SELECT count(*) FROM pg_locks WHERE pid = $1::int AND NOT granted AND locktype IN "
                        "('tuple', 'transactionid')",
                        {std::to_string(b_pid)}) != "0";
    }
    EXPECT_TRUE(waited_for_the_row) << "the next holder got its token while the old holder's checked transaction "
                                       "was still open";
    data.script("COMMIT");  // the old holder's work lands before the new token exists
    const auto [status, token] = waited.get();
    EXPECT_EQ(status, ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(token, old_token + 1);
    EXPECT_EQ(check_in_transaction(data, key, old_token), ADVLOCK_EFENCED);
}

TEST_F(Fencing, TheCheckOutsideATransactionIsMisuse) {
    const advlock_key key = test_key();
    Session a = open_session();
    Lock lock;
    ASSERT_EQ(take_fenced(&lock, a, key), ADVLOCK_OK) << advlock_error_last()->message;
    Psql data;
    EXPECT_EQ(advlock_fence_check(data.get(), &key, token_of(lock)), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("BEGIN"), std::string::npos);
    EXPECT_EQ(advlock_fence_check(nullptr, &key, 1), ADVLOCK_EINVAL);
}

TEST_F(Fencing, ATokenIsAskedForAndGoesWithExclusiveNonReentrantLocksOnly) {
    const advlock_key key = test_key();
    Session a = open_session();
    Lock plain = take(a, key);
    ASSERT_TRUE(plain);
    int64_t token = 0;
    EXPECT_EQ(advlock_lock_fence_token(&token, plain.get()), ADVLOCK_EMISUSE);
    EXPECT_NE(std::string(advlock_error_last()->message).find("ADVLOCK_LOCK_FENCED"), std::string::npos);
    plain.reset();

    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.flags = ADVLOCK_LOCK_FENCED;
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_acquire(&lock, a.get(), of_key(key), ADVLOCK_SHARED, &options), ADVLOCK_EINVAL);
    options.flags = ADVLOCK_LOCK_FENCED | ADVLOCK_LOCK_REENTRANT;
    EXPECT_EQ(advlock_session_acquire(&lock, a.get(), of_key(key), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("reentrant"), std::string::npos);
    EXPECT_EQ(lock, nullptr);
    EXPECT_EQ(advisory_locks_of(psql_, backend_pid(a)), "");
}

TEST_F(Fencing, ADatabaseWithoutTheFenceTableSaysHowToCreateItAndKeepsNoLock) {
    const std::string database = "advlock_no_fence_" + std::to_string(getpid());
    psql_.script("DROP DATABASE IF EXISTS " + database);
    psql_.script("CREATE DATABASE " + database);
    std::string url = postgres_url();
    url = url.substr(0, url.rfind('/') + 1) + database;
    {
        Session a = open_session(nullptr, url);
        const advlock_key key = test_key();
        for (const int64_t timeout : {int64_t{0}, int64_t{30000}}) {
            Lock lock;
            EXPECT_EQ(take_fenced(&lock, a, key, timeout), ADVLOCK_EUNSUPPORTED);
            EXPECT_NE(std::string(advlock_error_last()->message).find("advlock sql fence"), std::string::npos)
                << advlock_error_last()->message;
            Psql there(url);
            EXPECT_EQ(advisory_locks_of(there, backend_pid(a)), "");
        }
    }
    psql_.script("DROP DATABASE " + database + " WITH (FORCE)");
}

TEST(FencingOtherBackends, TheLocalBackendHasNoTokensToIssue) {
    char dir[] = "/tmp/advlock-fence-local.XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    Session local = open_session(nullptr, std::string("local:") + dir);
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.flags = ADVLOCK_LOCK_FENCED;
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_acquire(&lock, local.get(), of_key(advlock_key_bigint(7)), ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_EUNSUPPORTED);
    EXPECT_NE(std::string(advlock_error_last()->message).find("PostgreSQL"), std::string::npos);
    local.reset();
    std::filesystem::remove_all(dir);
}

TEST(FencingSql, TheCheckStatementAndItsSqlstateAreThereForOtherDrivers) {
    const advlock_key key = advlock_key_pair(100, 1);
    char *sql = nullptr;
    ASSERT_EQ(advlock_fence_check_sql(&sql, &key, 7), ADVLOCK_OK);
    EXPECT_STREQ(sql, "SELECT public.advlock_fence_check('100:1', 7)");
    advlock_free(sql);
    EXPECT_EQ(advlock_status_from_sqlstate("55T01"), ADVLOCK_EFENCED);
    EXPECT_STREQ(advlock_status_info_of(ADVLOCK_EFENCED)->parent, "lock_lost");
}
