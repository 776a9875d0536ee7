// Something runs DISCARD ALL or pg_advisory_unlock_all on the lock connection
// (a pooler's reset query, a program given the connection): every lock is gone
// while the connection lives on. The next verify must say so, and the watchdog
// must find out by itself at its next heartbeat. Uses the core directly: the C
// ABI offers no way to run SQL on a lock connection.
#include <gtest/gtest.h>

#include <string>

#include "error.hpp"
#include "keys/name_schemes.hpp"
#include "postgres/pg_session.hpp"
#include "support/lost_message.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::core;

namespace {

PgSessionOptions options(int interval_ms = kHeartbeatIntervalDefaultMs) {
    PgSessionOptions o;
    o.heartbeat_interval_ms = interval_ms;
    return o;
}

}  // namespace

class LockConnectionMisuse : public ::testing::TestWithParam<const char *> {};

TEST_P(LockConnectionMisuse, NextVerifyReportsTheLoss) {
    auto session = PgSession::open(advlock::test::postgres_url(), options());
    const Key key = advlock_key_for_name(std::string("misuse.verify.") + GetParam());
    ASSERT_TRUE(session->try_lock(key, LockMode::Exclusive));
    session->verify();
    session->run_sql_for_tests(GetParam());
    try {
        session->verify();
        FAIL() << "verify did not notice " << GetParam();
    } catch (const LockLost &e) {
        EXPECT_NE(std::string(e.what()).find("behind advlock's back"), std::string::npos) << e.what();
    }
    EXPECT_THROW(session->check(), LockLost);
    EXPECT_THROW(session->unlock(key, LockMode::Exclusive), LockLost);
}

TEST_P(LockConnectionMisuse, StrictVerifyReportsTheLoss) {
    auto session = PgSession::open(advlock::test::postgres_url(), options());
    const Key key = advlock_key_for_name(std::string("misuse.strict.") + GetParam());
    ASSERT_TRUE(session->try_lock(key, LockMode::Exclusive));
    session->verify_held(key, LockMode::Exclusive);
    session->run_sql_for_tests(GetParam());
    EXPECT_THROW(session->verify_held(key, LockMode::Exclusive), LockLost);
}

TEST_P(LockConnectionMisuse, WatchdogFindsOutByItself) {
    advlock::test::LostMessage lost;
    auto session = PgSession::open(advlock::test::postgres_url(), options(/*interval_ms=*/50));
    lost.attach(*session);
    ASSERT_TRUE(session->try_lock(advlock_key_for_name(std::string("misuse.watchdog.") + GetParam()),
                                  LockMode::Exclusive));
    session->run_sql_for_tests(GetParam());
    const std::string why = lost.wait();
    EXPECT_NE(why.find("behind advlock's back"), std::string::npos) << why;
}

INSTANTIATE_TEST_SUITE_P(Statements, LockConnectionMisuse,
                         ::testing::Values("DISCARD ALL", "SELECT pg_advisory_unlock_all()"),
                         [](const ::testing::TestParamInfo<const char *> &param) {
                             return std::string(param.param).find("DISCARD") == 0 ? "DiscardAll" : "UnlockAll";
                         });

TEST(LockConnectionMisuse, IdleSessionTimeoutSetOnTheLockConnectionIsNoticed) {
    advlock::test::LostMessage lost;
    auto session = PgSession::open(advlock::test::postgres_url(), options());
    lost.attach(*session);
    ASSERT_TRUE(session->try_lock(advlock_key_for_name("misuse.idle_session_timeout"), LockMode::Exclusive));
    // The server ends the session after 300 ms idle; the heartbeat (2 s) is slower.
    session->run_sql_for_tests("SET idle_session_timeout = 300");
    const std::string why = lost.wait();
    EXPECT_NE(why.find("57P05"), std::string::npos) << why;
    EXPECT_THROW(session->check(), LockLost);
}

TEST(LockConnectionMisuse, DiscardAllMakesTheNextLockCallLost) {
    auto session = PgSession::open(advlock::test::postgres_url(), options());
    const Key key = advlock_key_for_name("misuse.discard.next_call");
    ASSERT_TRUE(session->try_lock(key, LockMode::Exclusive));
    session->run_sql_for_tests("DISCARD ALL");
    try {
        session->try_lock(advlock_key_for_name("misuse.discard.other"), LockMode::Exclusive);
        FAIL() << "a lock call after DISCARD ALL succeeded";
    } catch (const LockLost &e) {
        EXPECT_NE(std::string(e.what()).find("DISCARD ALL"), std::string::npos) << e.what();
    }
}

TEST(LockConnectionMisuse, UnlockThatFindsNothingHeldIsALoss) {
    auto session = PgSession::open(advlock::test::postgres_url(), options());
    const Key key = advlock_key_for_name("misuse.unlock");
    ASSERT_TRUE(session->try_lock(key, LockMode::Exclusive));
    session->run_sql_for_tests("SELECT pg_advisory_unlock(" + std::to_string(key.bigint_value()) + ")");
    EXPECT_THROW(session->unlock(key, LockMode::Exclusive), LockLost);
    EXPECT_THROW(session->check(), LockLost);
}
