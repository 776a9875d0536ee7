// advlock refuses targets where a lock would exclude no one: a real streaming
// standby, a read-only session, a real PgBouncer in transaction mode; and
// accepts each when the caller opts in.
#include <gtest/gtest.h>

#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

advlock_status open_with(const std::string &url, bool allow_standby, bool allow_pooler, Session *out = nullptr) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    if (allow_standby) options.flags |= ADVLOCK_SESSION_ALLOW_STANDBY;
    if (allow_pooler) options.flags |= ADVLOCK_SESSION_ALLOW_POOLER;
    advlock_session *session = nullptr;
    const advlock_status status = advlock_session_open(&session, url.c_str(), &options);
    if (out) out->reset(session);
    else advlock_session_free(session);
    return status;
}

std::string message() { return advlock_error_last()->message; }

}  // namespace

class SafeTargets : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        primary_ = new ScriptedServer("pg-start.sh", "pg-stop.sh");
        standby_ = new ScriptedServer("pg-start.sh", "pg-stop.sh", "--standby-of " + primary_->state_dir());
        bouncer_ = new ScriptedServer("pgbouncer-start.sh", "pgbouncer-stop.sh", primary_->state_dir());
    }
    static void TearDownTestSuite() {
        delete bouncer_;
        delete standby_;
        delete primary_;
    }
    static ScriptedServer *primary_, *standby_, *bouncer_;
};
ScriptedServer *SafeTargets::primary_ = nullptr;
ScriptedServer *SafeTargets::standby_ = nullptr;
ScriptedServer *SafeTargets::bouncer_ = nullptr;

TEST_F(SafeTargets, StandbyIsRefusedWithItsOwnStatus) {
    ASSERT_EQ(Psql(standby_->url()).value("SELECT pg_is_in_recovery()"), "t");
    EXPECT_EQ(open_with(standby_->url(), false, false), ADVLOCK_ESTANDBY);
    EXPECT_NE(message().find("hot standby"), std::string::npos) << message();
    EXPECT_NE(message().find("allow_standby"), std::string::npos) << message();
    EXPECT_EQ(message().find(standby_->read("password")), std::string::npos);
    EXPECT_EQ(advlock_status_is_unsafe_target(ADVLOCK_ESTANDBY), 1);
}

TEST_F(SafeTargets, StandbyIsAcceptedWhenAllowed) {
    Session session;
    ASSERT_EQ(open_with(standby_->url(), true, false, &session), ADVLOCK_OK) << message();
    EXPECT_NE(take(session, test_key()), nullptr);
}

TEST_F(SafeTargets, SeveralHostsLandOnTheWritableOne) {
    // The standby is listed first; target_session_attrs=read-write moves on to the primary.
    const std::string url = "postgresql://postgres:" + primary_->read("password") + "@127.0.0.1:" +
                            standby_->read("port") + ",127.0.0.1:" + primary_->read("port") + "/postgres";
    Session session;
    ASSERT_EQ(open_with(url, false, false, &session), ADVLOCK_OK) << message();
    Psql primary(primary_->url());
    EXPECT_EQ(primary.value("SELECT count(*) FROM pg_stat_activity WHERE pid = $1::int",
                            {std::to_string(backend_pid(session))}),
              "1");
}

TEST_F(SafeTargets, ReadOnlySessionIsRefusedWithItsOwnStatus) {
    const std::string url = primary_->url() + "?options=-c%20default_transaction_read_only%3Don";
    EXPECT_EQ(open_with(url, false, false), ADVLOCK_EREADONLY);
    EXPECT_NE(message().find("read-only"), std::string::npos) << message();
    Session session;
    EXPECT_EQ(open_with(url, true, false, &session), ADVLOCK_OK) << message();
}

TEST_F(SafeTargets, PgBouncerInTransactionModeIsRefused) {
    ASSERT_NE(Psql(bouncer_->url()).value("SELECT pg_backend_pid()"), "");
    EXPECT_EQ(open_with(bouncer_->url(), false, false), ADVLOCK_EPOOLER);
    EXPECT_NE(message().find("connection pooler"), std::string::npos) << message();
    EXPECT_NE(message().find("allow_pooler"), std::string::npos) << message();
}

TEST_F(SafeTargets, PoolerIsAcceptedWhenAllowed) {
    Session session;
    EXPECT_EQ(open_with(bouncer_->url(), false, true, &session), ADVLOCK_OK) << message();
}

TEST_F(SafeTargets, UnreachableHostsStillGiveEconnect) {
    EXPECT_EQ(open_with("postgresql://postgres:pw@127.0.0.1:1,127.0.0.1:2/postgres", false, false), ADVLOCK_ECONNECT);
}
