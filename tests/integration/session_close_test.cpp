// Closing a session from any thread, and waiting for its loss, on the core's
// own classes (the C ABI over them is being rewritten): a close ends every
// wait in progress (on the server and among the session's owners), is safe to
// repeat and to race with calls, and wakes wait_for_loss and loss_fd; a loss
// the watchdog finds wakes them too. PostgreSQL (the fixture) and the local
// flock backend; no timing is asserted, only outcomes.
#include <gtest/gtest.h>

#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "error.hpp"
#include "local/local_session.hpp"
#include "postgres/pg_session.hpp"
#include "session/held_lock.hpp"
#include "support/pg_lock_rows.hpp"
#include "support/temp_directory.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::core;
using advlock::test::Psql;
using advlock::test::TempDirectory;

namespace {

// Long enough for any loaded machine: these only bound a hang, never a speed.
constexpr long long kGenerousMs = 60000;

Key test_key(int n) { return Key::bigint(0x5E55C105E0000LL + ::getpid() * 64LL + n); }

// A future's value, failing (not hanging) when it never comes.
template <typename T>
T outcome(std::future<T> &future) {
    if (future.wait_for(std::chrono::milliseconds(kGenerousMs)) != std::future_status::ready) {
        ADD_FAILURE() << "the wait did not end";
        std::abort();  // the thread is still blocked: nothing sane is left to do
    }
    return future.get();
}

// What a call ended with: "ok", "misuse", "canceled", or the other error.
std::string ended_with(const std::function<void()> &call) {
    try {
        call();
        return "ok";
    } catch (const Misuse &) {
        return "misuse";
    } catch (const Canceled &) {
        return "canceled";
    } catch (const std::exception &e) {
        return std::string("other: ") + e.what();
    }
}

bool readable(int fd, int timeout_ms) {
    pollfd watched{fd, POLLIN, 0};
    return ::poll(&watched, 1, timeout_ms) == 1 && (watched.revents & POLLIN) != 0;
}

class SessionCloseOn : public ::testing::TestWithParam<std::string> {
protected:
    bool postgres() const { return GetParam() == "postgres"; }

    std::shared_ptr<LockSession> open() {
        if (postgres()) return PgSession::open(advlock::test::postgres_url(), {});
        return LocalSession::open("local:" + directory_.path(), 1000);
    }

    // Returns once `session` waits on the server for `key` (PostgreSQL: its
    // ungranted row in pg_locks). The local backend's wait (polled flock)
    // shows nowhere: a short pause makes it likely, and the test holds either way.
    void wait_until_waiting(const LockSession &session, const Key &key) {
        if (!postgres()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            return;
        }
        ASSERT_TRUE(advlock::test::until_pg_lock_row(session.server_session_id(), key.bigint_value(), "waiting"))
            << "the wait never showed in pg_locks";
    }

    TempDirectory directory_;
};

INSTANTIATE_TEST_SUITE_P(Each, SessionCloseOn, ::testing::Values("postgres", "local"),
                         [](const ::testing::TestParamInfo<std::string> &backend) { return backend.param; });

}  // namespace

TEST_P(SessionCloseOn, CloseFromAnotherThreadEndsAServerWait) {
    const Key key = test_key(1);
    auto other = open();
    ASSERT_TRUE(other->try_lock(key, LockMode::Exclusive));
    auto session = open();
    auto waited = std::async(std::launch::async, [&] {
        return ended_with([&] { session->lock(key, LockMode::Exclusive, -1); });
    });
    wait_until_waiting(*session, key);
    session->close();
    EXPECT_EQ(outcome(waited), "misuse") << "a wait its session's close ended says the session is closed";
    EXPECT_TRUE(session->is_closed());
    // The wait left nothing behind: the holder still holds, and after it a new session takes the lock.
    other->unlock(key, LockMode::Exclusive);
    auto next = open();
    EXPECT_TRUE(next->try_lock(key, LockMode::Exclusive));
}

TEST_P(SessionCloseOn, CloseFromAnotherThreadEndsAnOwnerWaitInTheProcess) {
    const Key key = test_key(2);
    auto session = open();
    HeldLock first(session, key, LockMode::Exclusive);
    AcquireOptions now;
    ASSERT_TRUE(first.acquire(now));
    auto waited = std::async(std::launch::async, [&] {
        return ended_with([&] {
            HeldLock second(session, key, LockMode::Exclusive);
            AcquireOptions forever;
            forever.timeout_ms = -1;
            second.acquire(forever);  // waits in LockOwners for `first`, never on the connection
        });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // likely waiting by now; holds either way
    session->close();
    EXPECT_EQ(outcome(waited), "misuse") << "an owner's wait its session's close ended says the session is closed";
    EXPECT_EQ(ended_with([&] { first.release(); }), "misuse") << "closing released it";
}

TEST_P(SessionCloseOn, CloseTwiceAndFromSeveralThreadsAtOnce) {
    auto session = open();
    ASSERT_TRUE(session->try_lock(test_key(3), LockMode::Exclusive));
    std::vector<std::thread> closers;
    for (int i = 0; i < 4; ++i) closers.emplace_back([&] { session->close(); });
    for (std::thread &t : closers) t.join();
    session->close();
    EXPECT_TRUE(session->is_closed());
    EXPECT_EQ(session->wait_for_loss(0), LossWait::Closed);
    auto next = open();
    // The server frees a closed connection's locks as it notices the close: wait for that.
    EXPECT_TRUE(next->lock(test_key(3), LockMode::Exclusive, kGenerousMs)) << "closing released the lock";
}

TEST_P(SessionCloseOn, EveryCallAfterCloseThrowsMisuse) {
    const Key key = test_key(4);
    auto session = open();
    ASSERT_TRUE(session->try_lock(key, LockMode::Exclusive));
    session->close();
    const std::vector<std::pair<const char *, std::function<void()>>> calls = {
        {"try_lock", [&] { session->try_lock(key, LockMode::Exclusive); }},
        {"lock (wait)", [&] { session->lock(key, LockMode::Exclusive, 1000); }},
        {"lock (try)", [&] { session->lock(key, LockMode::Exclusive, 0); }},
        {"unlock", [&] { session->unlock(key, LockMode::Exclusive); }},
        {"holders", [&] { session->holders(nullptr, std::nullopt); }},
        {"check", [&] { session->check(); }},
        {"verify", [&] { session->verify(); }},
        {"verify_held", [&] { session->verify_held(key, LockMode::Exclusive); }},
        {"ledger_completed", [&] { session->ledger_completed("job", "period"); }},
        {"acquire", [&] {
             HeldLock lock(session, key, LockMode::Exclusive);
             lock.acquire(AcquireOptions{});
         }},
    };
    for (const auto &[name, call] : calls) EXPECT_EQ(ended_with(call), "misuse") << name;
}

TEST_P(SessionCloseOn, CallsRacingACloseCompleteOrThrowMisuse) {
    auto session = open();
    std::atomic<bool> go{false};
    std::vector<std::future<std::vector<std::string>>> callers;
    for (int t = 0; t < 4; ++t) {
        callers.push_back(std::async(std::launch::async, [&, t] {
            std::vector<std::string> outcomes;
            while (!go.load()) std::this_thread::yield();
            const Key key = test_key(10 + t);
            for (int i = 0; i < 200 && !session->is_closed(); ++i) {
                outcomes.push_back(ended_with([&] {
                    if (session->try_lock(key, LockMode::Exclusive)) session->unlock(key, LockMode::Exclusive);
                }));
                outcomes.push_back(ended_with([&] { session->holders(nullptr, std::nullopt); }));
            }
            // A thread can run its 200 rounds before the close (a loaded machine
            // wakes the closing thread late): the last call must follow the close.
            while (!session->is_closed()) std::this_thread::yield();
            outcomes.push_back(ended_with([&] { session->try_lock(key, LockMode::Exclusive); }));
            return outcomes;
        }));
    }
    go.store(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    session->close();
    for (auto &caller : callers) {
        const std::vector<std::string> outcomes = outcome(caller);
        for (const std::string &o : outcomes) {
            EXPECT_TRUE(o == "ok" || o == "misuse") << o;
        }
        EXPECT_EQ(outcomes.back(), "misuse") << "the call after the close";
    }
}

TEST_P(SessionCloseOn, WaitForLossSaysClosedAfterACloseOnAnotherThread) {
    auto session = open();
    EXPECT_EQ(session->wait_for_loss(0), LossWait::TimedOut);
    EXPECT_EQ(session->wait_for_loss(10), LossWait::TimedOut);
    auto waited = std::async(std::launch::async, [&] { return session->wait_for_loss(-1); });
    session->close();
    EXPECT_EQ(outcome(waited), LossWait::Closed);
    EXPECT_EQ(session->wait_for_loss(-1), LossWait::Closed) << "and keeps saying so";
    EXPECT_EQ(session->loss_reason(), "");
}

TEST_P(SessionCloseOn, LossFdIsReadableOnceClosedNotBefore) {
    auto session = open();
    const int fd = session->loss_fd();
    ASSERT_GE(fd, 0);
    EXPECT_EQ(session->loss_fd(), fd) << "one descriptor per session";
    EXPECT_FALSE(readable(fd, 0));
    session->close();
    EXPECT_TRUE(readable(fd, static_cast<int>(kGenerousMs)));
    EXPECT_TRUE(readable(fd, 0)) << "level-triggered: stays readable";
    auto late = open();
    late->close();
    EXPECT_TRUE(readable(late->loss_fd(), 0)) << "made after the close, readable at once";
}

// A loss only the server can cause: pg_terminate_backend of the lock session.
TEST(LossWait, LostAfterTheServerEndsTheSessionAndLostWinsOverClosed) {
    auto session = PgSession::open(advlock::test::postgres_url(), {});
    ASSERT_TRUE(session->try_lock(test_key(20), LockMode::Exclusive));
    const int fd = session->loss_fd();
    EXPECT_FALSE(readable(fd, 0));
    EXPECT_EQ(session->wait_for_loss(0), LossWait::TimedOut);
    auto waited = std::async(std::launch::async, [&] { return session->wait_for_loss(-1); });
    Psql().query("SELECT pg_terminate_backend($1::int)", {std::to_string(session->server_session_id())});
    EXPECT_EQ(outcome(waited), LossWait::Lost) << "the watchdog found out, no call of ours";
    EXPECT_NE(session->loss_reason().find("administrator command"), std::string::npos) << session->loss_reason();
    EXPECT_TRUE(readable(fd, static_cast<int>(kGenerousMs)));
    session->close();
    EXPECT_EQ(session->wait_for_loss(0), LossWait::Lost) << "lost wins over closed";
    EXPECT_TRUE(readable(fd, 0));
}

TEST(LossWait, LossFdBecomesReadableAfterTheServerEndsTheSession) {
    auto session = PgSession::open(advlock::test::postgres_url(), {});
    const int fd = session->loss_fd();
    EXPECT_FALSE(readable(fd, 0));
    Psql().query("SELECT pg_terminate_backend($1::int)", {std::to_string(session->server_session_id())});
    EXPECT_TRUE(readable(fd, static_cast<int>(kGenerousMs)));
    EXPECT_TRUE(readable(fd, 0)) << "level-triggered: stays readable";
    EXPECT_EQ(session->wait_for_loss(0), LossWait::Lost);
}
