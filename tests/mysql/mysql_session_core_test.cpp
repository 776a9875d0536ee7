// What only the core can show: SQL run on the lock connection itself, as a
// misbehaving program might (locks released behind advlock's back), and the
// server's wait_timeout ending the session.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <thread>
#include <unistd.h>

#include "error.hpp"
#include "mysql/mysql_connection.hpp"
#include "mysql/mysql_session.hpp"
#include "mysql/mysql_url.hpp"
#include "session/held_lock.hpp"
#include "support/lost_message.hpp"
#include "support/test_mariadb.hpp"

namespace advlock::test {
namespace {

using core::LockMode;
using core::LockTarget;
using core::MysqlSession;

std::string unique_name(const char *what) { return std::string(what) + "_" + std::to_string(::getpid()); }

TEST(MysqlSessionCore, AReleaseTheServerDeniesIsALoss) {
    auto session = MysqlSession::open(mariadb_url(), {});
    const LockTarget target = LockTarget::named(unique_name("released_behind_back"));
    ASSERT_TRUE(session->try_lock(target, LockMode::Exclusive));
    session->run_sql_for_tests("DO RELEASE_ALL_LOCKS()");
    EXPECT_THROW(session->unlock(target, LockMode::Exclusive), core::LockLost);
    EXPECT_THROW(session->check(), core::LockLost);
}

TEST(MysqlSessionCore, AReleaseOfALockAnotherSessionNowHoldsIsALoss) {
    auto mine = MysqlSession::open(mariadb_url(), {});
    auto other = MysqlSession::open(mariadb_url(), {});
    const LockTarget target = LockTarget::named(unique_name("taken_over"));
    ASSERT_TRUE(mine->try_lock(target, LockMode::Exclusive));
    mine->run_sql_for_tests("DO RELEASE_ALL_LOCKS()");
    ASSERT_TRUE(other->try_lock(target, LockMode::Exclusive));
    try {
        mine->unlock(target, LockMode::Exclusive);
        FAIL() << "unlock succeeded";
    } catch (const core::LockLost &lost) {
        EXPECT_NE(std::string(lost.what()).find("another session holds it now"), std::string::npos) << lost.what();
    }
}

TEST(MysqlSessionCore, WaitTimeoutEndingTheSessionIsALoss) {
    core::MysqlSessionOptions options;
    options.heartbeat_interval_ms = 20000;  // the heartbeat must not keep the session busy
    options.heartbeat_deadline_ms = 3000;
    LostMessage lost;
    auto session = MysqlSession::open(mariadb_url(), options);
    lost.attach(*session);
    const LockTarget target = LockTarget::named(unique_name("wait_timeout"));
    ASSERT_TRUE(session->try_lock(target, LockMode::Exclusive));
    session->run_sql_for_tests("SET SESSION wait_timeout = 1");
    const std::string why = lost.wait();
    EXPECT_NE(why.find("closed the connection"), std::string::npos) << why;
    // The server frees the lock as its session thread ends, which may be just
    // after the client saw the socket close; it must come (CTest's timeout
    // bounds the wait).
    Admin admin;
    while (admin.holder_of(*target.name()) != "free") std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

TEST(MysqlSessionCore, HeartbeatSettingsOutOfRangeAreRefused) {
    core::MysqlSessionOptions options;
    options.heartbeat_interval_ms = core::kHeartbeatMaximumMs + 1;
    EXPECT_THROW(MysqlSession::open(mariadb_url(), options), core::InvalidArgument);
    options.heartbeat_interval_ms = 2000;
    options.stop_grace_ms = -1;
    EXPECT_THROW(MysqlSession::open(mariadb_url(), options), core::InvalidArgument);
}

TEST(MysqlSessionCore, TheServersIdleTimeoutIsTheSessionsSilenceLimit) {
    // Default: 2 + 3 + 10 + 3 = 18 s; a 15 s stop grace: 23 s.
    core::MysqlConnection plain = core::MysqlConnection::open(core::parse_mysql_url(mariadb_url()), {});
    EXPECT_EQ(plain.query("SELECT @@session.wait_timeout", "test").at(0).at(0).value_or(""), "18");
    core::MysqlConnectOptions longer;
    longer.silence_limit_s = core::server_silence_limit_s(core::HeartbeatSettings{2000, 3000, 15000});
    core::MysqlConnection graced = core::MysqlConnection::open(core::parse_mysql_url(mariadb_url()), longer);
    EXPECT_EQ(graced.query("SELECT @@session.wait_timeout", "test").at(0).at(0).value_or(""), "23");
}

TEST(MysqlSessionCore, AnOptionFileCannotTurnOnReconnectOrChangeTheCharacterSet) {
    // Connector/C applies option files during mysql_real_connect, after
    // advlock's own options: a reconnect would be a session without the locks.
    const std::string file = "/tmp/advlock-reconnect-" + std::to_string(::getpid()) + ".cnf";
    std::ofstream(file) << "[client]\nreconnect=1\ndefault-character-set=latin1\n";
    core::MysqlConnection connection =
        core::MysqlConnection::open(core::parse_mysql_url(mariadb_url("?option_file=" + file)), {});
    ::unlink(file.c_str());
    my_bool reconnect = 1;
    ASSERT_EQ(mysql_get_optionv(connection.get(), MYSQL_OPT_RECONNECT, &reconnect), 0);
    EXPECT_EQ(reconnect, 0);
    EXPECT_STREQ(mysql_character_set_name(connection.get()), "utf8mb4");
}

// The C ABI's close is being rewritten over this: the core's own close, from
// another thread, ends a GET_LOCK wait in progress (it says Misuse: the
// session is closed), releases the session's locks, and wakes wait_for_loss.
TEST(MysqlSessionCore, CloseFromAnotherThreadEndsAServerWait) {
    auto holder = MysqlSession::open(mariadb_url(), {});
    auto session = MysqlSession::open(mariadb_url(), {});
    const LockTarget wanted = LockTarget::named(unique_name("close_ends_wait"));
    const LockTarget mine = LockTarget::named(unique_name("close_releases"));
    ASSERT_TRUE(holder->try_lock(wanted, LockMode::Exclusive));
    ASSERT_TRUE(session->try_lock(mine, LockMode::Exclusive));
    auto waited = std::async(std::launch::async, [&] {
        try {
            session->lock(wanted, LockMode::Exclusive, -1);
            return std::string("granted");
        } catch (const core::Misuse &) {
            return std::string("misuse");
        } catch (const std::exception &e) {
            return std::string("other: ") + e.what();
        }
    });
    auto lossless = std::async(std::launch::async, [&] { return session->wait_for_loss(-1); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // likely waiting by now; holds either way
    session->close();
    ASSERT_EQ(waited.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the wait did not end";
    EXPECT_EQ(waited.get(), "misuse");
    ASSERT_EQ(lossless.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_EQ(lossless.get(), core::LossWait::Closed);
    session->close();  // again: nothing happens
    EXPECT_THROW(session->check(), core::Misuse);
    auto next = MysqlSession::open(mariadb_url(), {});
    // The server frees a closed connection's locks as it notices the close: wait for that.
    EXPECT_TRUE(next->lock(mine, LockMode::Exclusive, 60000)) << "closing released the session's lock";
}

// Freeing an unreleased lock handle (a finalizer) never waits for a GET_LOCK
// wait on another thread of the session; the release follows once it ends.
TEST(MysqlSessionCore, FreeingAnUnreleasedLockNeverWaitsForAServerWait) {
    auto holder = MysqlSession::open(mariadb_url(), {});
    auto session = MysqlSession::open(mariadb_url(), {});
    const LockTarget wanted = LockTarget::named(unique_name("finalizer_wait"));
    const LockTarget freed = LockTarget::named(unique_name("finalizer_freed"));
    ASSERT_TRUE(holder->try_lock(wanted, LockMode::Exclusive));
    auto unreleased = std::make_unique<core::HeldLock>(session, freed, LockMode::Exclusive);
    ASSERT_TRUE(unreleased->acquire(core::AcquireOptions{}));
    auto waited = std::async(std::launch::async, [&] { return session->lock(wanted, LockMode::Exclusive, -1); });
    Admin admin;
    const std::string me = std::to_string(session->server_session_id());
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (admin.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + me +
                       " AND INFO LIKE 'SELECT GET_LOCK%'") == std::optional<std::string>("0")) {
        ASSERT_LT(std::chrono::steady_clock::now(), until) << "the wait never showed in the process list";
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    auto destroyed = std::async(std::launch::async, [&] { unreleased.reset(); });
    const bool returned = destroyed.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    EXPECT_TRUE(returned) << "freeing an unreleased lock waited for the connection";
    holder->unlock(wanted, LockMode::Exclusive);
    ASSERT_EQ(waited.wait_for(std::chrono::seconds(60)), std::future_status::ready);
    EXPECT_TRUE(waited.get());
    const std::string name = session->lock_name(freed);
    while (admin.holder_of(name) != "free") {
        ASSERT_LT(std::chrono::steady_clock::now(), until) << "the deferred release never reached the server";
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace
}  // namespace advlock::test
