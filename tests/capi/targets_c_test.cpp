// Lock targets through the C ABI: a key and the name it was made from, with
// the name borrowed from the caller's text, and every bad input refused.
#include <gtest/gtest.h>

#include <string>

#include "advlock.h"
#include "support/key_vectors.hpp"
#include "support/temp_directory.hpp"

TEST(TargetsC, FromNameKeepsTheNameAndTheSchemesKey) {
    for (const auto &v : advlock::test::load_key_vectors().names) {
        SCOPED_TRACE(v.name);
        advlock_target target;
        ASSERT_EQ(advlock_target_from_name(&target, v.name.data(), v.name.size()), ADVLOCK_OK);
        EXPECT_EQ(target.key.space, ADVLOCK_KEY_BIGINT);
        EXPECT_EQ(target.key.bigint, v.advlock);
        EXPECT_EQ(target.name, v.name.data()) << "the name is borrowed, not copied";
        EXPECT_EQ(target.name_len, v.name.size());
    }
}

TEST(TargetsC, ParseKeepsANameOnlyForNameText) {
    const std::string text = "name:daily_sales";
    advlock_target target;
    ASSERT_EQ(advlock_target_parse(&target, text.data(), text.size()), ADVLOCK_OK);
    EXPECT_EQ(std::string(target.name, target.name_len), "daily_sales");
    EXPECT_EQ(target.name, text.data() + 5);
    advlock_key expected;
    ASSERT_EQ(advlock_key_from_name(&expected, "daily_sales", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    EXPECT_TRUE(advlock_key_equal(&target.key, &expected));

    ASSERT_EQ(advlock_target_parse(&target, "100:1", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    EXPECT_EQ(target.name, nullptr);
    const advlock_key pair = advlock_key_pair(100, 1);
    EXPECT_TRUE(advlock_key_equal(&target.key, &pair));

    EXPECT_EQ(advlock_target_parse(&target, "name:", ADVLOCK_NUL_TERMINATED), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_target_parse(&target, "1:2:3", ADVLOCK_NUL_TERMINATED), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_target_parse(nullptr, "1", ADVLOCK_NUL_TERMINATED), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_target_parse(&target, nullptr, 0), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_target_from_name(&target, "", 0), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_target_from_name(&target, nullptr, 0), ADVLOCK_EINVAL);
}

TEST(TargetsC, OfKeyHasNoName) {
    const advlock_target target = advlock_target_of_key(advlock_key_bigint(-42));
    EXPECT_EQ(target.name, nullptr);
    EXPECT_EQ(target.key.bigint, -42);
}

// A target whose name and key disagree would lock one thing on PostgreSQL
// and another on MySQL: every lock call refuses it before any round trip.
TEST(TargetsC, ANameThatIsNotTheKeysIsRefusedByTheLockCalls) {
    const advlock::test::TempDirectory dir("advlock-targets-c");
    advlock_session *session = nullptr;
    ASSERT_EQ(advlock_session_open(&session, ("local:" + dir.path()).c_str(), nullptr), ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock_target forged;
    ASSERT_EQ(advlock_target_from_name(&forged, "daily_sales", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    forged.key = advlock_key_pair(100, 1);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, session, &forged, ADVLOCK_EXCLUSIVE), ADVLOCK_EKEY);
    EXPECT_NE(std::string(advlock_error_last()->message).find("is not the advlock key of its name"), std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(lock, nullptr);
    EXPECT_EQ(advlock_session_lock(&lock, session, &forged, ADVLOCK_EXCLUSIVE, 10), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_session_acquire(&lock, session, &forged, ADVLOCK_EXCLUSIVE, nullptr), ADVLOCK_EKEY);
    advlock_holders *holders = nullptr;
    EXPECT_EQ(advlock_session_holders(&holders, session, nullptr, &forged), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_session_try_lock(&lock, session, nullptr, ADVLOCK_EXCLUSIVE), ADVLOCK_EINVAL);
    EXPECT_EQ(std::string(advlock_error_last()->message), "advlock_session_try_lock: argument 'target' is NULL");
    advlock_session_free(session);
}

TEST(TargetsC, UnknownFlagBitsAreRefused) {
    advlock_session_options options = ADVLOCK_SESSION_OPTIONS_INIT;
    options.flags = 0x100u;
    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, "local", &options), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("session options flags has bits 0x100"),
              std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(session, nullptr);
    char *sql = nullptr;
    EXPECT_EQ(advlock_sql_privileges(&sql, "PUBLIC", 0x4u), ADVLOCK_EINVAL);
    EXPECT_EQ(sql, nullptr);
    const advlock_lock_options defaults = ADVLOCK_LOCK_OPTIONS_INIT;
    advlock_lock_options initialised;
    ASSERT_EQ(advlock_lock_options_init(&initialised, ADVLOCK_LOCK_OPTIONS_VERSION), ADVLOCK_OK);
    EXPECT_EQ(defaults.version, initialised.version);
    EXPECT_EQ(defaults.timeout_ms, initialised.timeout_ms);
    EXPECT_EQ(defaults.flags, initialised.flags);
}
