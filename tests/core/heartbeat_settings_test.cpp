// The rule that orders the two sides of a network loss: the client lets go and
// stops its holder before the server frees the locks.
#include <gtest/gtest.h>

#include "error.hpp"
#include "postgres/pg_timeouts.hpp"
#include "session/heartbeat_settings.hpp"

using namespace advlock::core;

TEST(HeartbeatSettings, TheDefaultsFreeADeadHolderWithin20Seconds) {
    EXPECT_EQ(server_silence_limit_s(HeartbeatSettings{}), 18);
    const pg_timeouts::ServerKeepalives keepalives = pg_timeouts::server_keepalives(18);
    EXPECT_EQ(keepalives.idle_s + keepalives.count * keepalives.interval_s, 18);
}

TEST(HeartbeatSettings, TheServerWaitsForTheClientAndItsStopGrace) {
    for (const HeartbeatSettings s : {HeartbeatSettings{10, 10, 0}, HeartbeatSettings{2000, 3000, 15000},
                                      HeartbeatSettings{20000, 6000, 10000}, HeartbeatSettings{999, 1, 1},
                                      HeartbeatSettings{kHeartbeatMaximumMs, kHeartbeatMaximumMs, kHeartbeatMaximumMs}}) {
        const long long client_done_ms = static_cast<long long>(s.interval_ms) + s.deadline_ms + s.stop_grace_ms;
        EXPECT_GE(server_silence_limit_s(s) * 1000LL, client_done_ms + kServerSilenceMarginMs)
            << s.interval_ms << "+" << s.deadline_ms << "+" << s.stop_grace_ms;
    }
    // A longer kill grace moves the server's limit with it: 5 + 15 + 3 s.
    EXPECT_EQ(server_silence_limit_s(HeartbeatSettings{2000, 3000, 15000}), 23);
}

TEST(HeartbeatSettings, ServerKeepalivesAddUpToTheLimitForEveryLimit) {
    const int smallest = server_silence_limit_s(HeartbeatSettings{kHeartbeatMinimumMs, kHeartbeatMinimumMs, 0});
    const int largest = server_silence_limit_s(
        HeartbeatSettings{kHeartbeatMaximumMs, kHeartbeatMaximumMs, kHeartbeatMaximumMs});
    for (int limit = smallest; limit <= largest; ++limit) {
        const pg_timeouts::ServerKeepalives k = pg_timeouts::server_keepalives(limit);
        ASSERT_GE(k.idle_s, 1) << limit;
        ASSERT_GE(k.interval_s, 1) << limit;
        ASSERT_EQ(k.idle_s + k.count * k.interval_s, limit) << limit;
    }
}

TEST(HeartbeatSettings, SettingsOutOfRangeAreRefusedByName) {
    EXPECT_NO_THROW(validate_heartbeat(HeartbeatSettings{}));
    EXPECT_NO_THROW(validate_heartbeat(HeartbeatSettings{20000, 5000, 0}));  // once refused (above 25 s)
    const auto refusal = [](const HeartbeatSettings &s) {
        try {
            validate_heartbeat(s);
        } catch (const InvalidArgument &e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal({5, 3000, 0}).find("heartbeat interval 5 ms"), std::string::npos);
    EXPECT_NE(refusal({2000, kHeartbeatMaximumMs + 1, 0}).find("heartbeat deadline"), std::string::npos);
    EXPECT_NE(refusal({2000, 3000, -1}).find("stop grace"), std::string::npos);
    EXPECT_NE(refusal({2000, 3000, kHeartbeatMaximumMs + 1}).find("--kill-grace"), std::string::npos);
}
