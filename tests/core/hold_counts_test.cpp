// The acquisition counts every backend keeps (session/hold_counts.hpp): each
// release matches an acquisition of the same lock in the same mode.
#include <gtest/gtest.h>

#include <string>

#include "keys/key.hpp"
#include "session/hold_counts.hpp"

using namespace advlock::core;

TEST(HoldCounts, CountsEachModeApartAndRefusesAReleaseNeverTaken) {
    HoldCounts<Key, KeyHash> holds;
    const Key key = Key::bigint(7);
    EXPECT_TRUE(holds.empty());
    EXPECT_EQ(holds.remove(key, LockMode::Exclusive), -1) << "nothing to release";
    holds.add(key, LockMode::Exclusive);
    holds.add(key, LockMode::Exclusive);
    holds.add(key, LockMode::Shared);
    EXPECT_EQ(holds.count(key, LockMode::Exclusive), 2);
    EXPECT_EQ(holds.count(key, LockMode::Shared), 1);
    EXPECT_EQ(holds.count(Key::pair(0, 7), LockMode::Exclusive), 0) << "another key space is another lock";
    EXPECT_EQ(holds.remove(key, LockMode::Exclusive), 1);
    EXPECT_EQ(holds.remove(key, LockMode::Shared), 0);
    EXPECT_EQ(holds.remove(key, LockMode::Shared), -1) << "released once per acquisition";
    EXPECT_FALSE(holds.empty());
    holds.clear();
    EXPECT_TRUE(holds.empty());
    EXPECT_EQ(holds.count(key, LockMode::Exclusive), 0);
}

TEST(HoldCounts, NamesAreLocksToo) {
    HoldCounts<std::string> holds;
    holds.add("daily_sales", LockMode::Exclusive);
    EXPECT_EQ(holds.count("daily_sales", LockMode::Exclusive), 1);
    EXPECT_EQ(holds.count("Daily_Sales", LockMode::Exclusive), 0) << "counted by the exact text";
    EXPECT_EQ(holds.remove("daily_sales", LockMode::Exclusive), 0);
    EXPECT_TRUE(holds.empty());
}
