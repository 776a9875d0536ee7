// The loss bookkeeping every backend shares, and which server messages mean
// that a session is ending.
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "error.hpp"
#include "postgres/pg_loss_notices.hpp"
#include "session/loss_state.hpp"

using namespace advlock::core;

TEST(LossState, FirstDeclarationGivesTheReason) {
    LossState loss;
    EXPECT_FALSE(loss.lost());
    EXPECT_TRUE(loss.declare("network silent", ""));
    EXPECT_FALSE(loss.declare("connection closed", ""));
    EXPECT_TRUE(loss.lost());
    EXPECT_EQ(loss.message(), "network silent");
    try {
        loss.throw_lost("unlock 1:2");
        FAIL();
    } catch (const LockLost &e) {
        EXPECT_EQ(e.status(), ADVLOCK_ELOST);
        EXPECT_NE(std::string(e.what()).find("unlock 1:2"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("network silent"), std::string::npos);
    }
}

TEST(LossState, CallbackFiresExactlyOnceWhateverTheOrder) {
    LossState before, after;
    int fired_before = 0, fired_after = 0;
    before.set_callback([&](const std::string &, const std::string &) { ++fired_before; });
    before.fire_if_pending();
    EXPECT_EQ(fired_before, 0);  // nothing lost yet
    before.declare("gone", "57P01");
    before.fire_if_pending();
    before.fire_if_pending();
    EXPECT_EQ(fired_before, 1);

    after.declare("gone", "");
    after.set_callback([&](const std::string &, const std::string &) { ++fired_after; });  // fires at once
    after.set_callback([&](const std::string &, const std::string &) { ++fired_after; });
    after.fire_if_pending();
    EXPECT_EQ(fired_after, 1);
}

TEST(LossState, ManyThreadsStillFireOnce) {
    LossState loss;
    std::atomic<int> fired{0};
    loss.set_callback([&](const std::string &, const std::string &) { ++fired; });
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i) {
        threads.emplace_back([&, i] {
            loss.declare("reason " + std::to_string(i), "");
            loss.fire_if_pending();
        });
    }
    for (auto &t : threads) t.join();
    EXPECT_EQ(fired.load(), 1);
}

TEST(LossNotices, SessionEndingMessagesAreRecognised) {
    EXPECT_TRUE(is_session_ending("FATAL", "57P01"));    // terminate, shutdown
    EXPECT_TRUE(is_session_ending("WARNING", "57P02"));  // crash of another backend
    EXPECT_TRUE(is_session_ending("FATAL", "57P05"));    // idle_session_timeout
    EXPECT_TRUE(is_session_ending("FATAL", "25P03"));    // idle_in_transaction_session_timeout
    EXPECT_TRUE(is_session_ending("FATAL", "28000"));    // any FATAL ends the session
    EXPECT_TRUE(is_session_ending("PANIC", "XX000"));
    EXPECT_FALSE(is_session_ending("WARNING", "01000"));  // "you don't own a lock of type ..."
    EXPECT_FALSE(is_session_ending("NOTICE", "00000"));
    EXPECT_FALSE(is_session_ending("ERROR", "55P03"));    // lock_timeout: an ordinary error
}
