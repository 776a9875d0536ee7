// Keys through the C ABI: the shared vectors, and every NULL or bad input.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "advlock.h"
#include "support/key_vectors.hpp"

namespace {

std::string last_message() { return advlock_error_last()->message; }

const advlock_key kSentinel = advlock_key_pair(-7, -7);

}  // namespace

TEST(KeysC, VectorsForBothSchemes) {
    for (const auto &v : advlock::test::load_key_vectors().names) {
        SCOPED_TRACE(v.name);
        advlock_key key;
        ASSERT_EQ(advlock_key_from_name(&key, v.name.c_str(), ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
        EXPECT_EQ(key.space, ADVLOCK_KEY_BIGINT);
        EXPECT_EQ(key.bigint, v.advlock);
        ASSERT_EQ(advlock_key_from_name(&key, v.name.data(), v.name.size()), ADVLOCK_OK);
        EXPECT_EQ(key.bigint, v.advlock);

        ASSERT_EQ(advlock_key_from_name_compat(&key, v.name.c_str(), ADVLOCK_NUL_TERMINATED, 0), ADVLOCK_OK);
        EXPECT_EQ(key.space, ADVLOCK_KEY_PAIR);
        EXPECT_EQ(key.k1, v.compat_k1);
        EXPECT_EQ(key.k2, v.compat_k2);
        ASSERT_EQ(advlock_key_from_name_compat(&key, v.name.data(), v.name.size(), 42), ADVLOCK_OK);
        EXPECT_EQ(key.k1, v.compat42_k1);
        EXPECT_EQ(key.k2, v.compat42_k2);
    }
}

TEST(KeysC, PgLocksVectorsBothWays) {
    for (const auto &v : advlock::test::load_key_vectors().pg_locks) {
        const advlock_key key = v.is_pair ? advlock_key_pair(v.k1, v.k2) : advlock_key_bigint(v.bigint);
        advlock_pg_locks_key pg;
        ASSERT_EQ(advlock_key_to_pg_locks(&pg, &key), ADVLOCK_OK);
        EXPECT_EQ(pg.classid, v.classid);
        EXPECT_EQ(pg.objid, v.objid);
        EXPECT_EQ(pg.objsubid, v.objsubid);
        advlock_key back;
        ASSERT_EQ(advlock_key_from_pg_locks(&back, &pg), ADVLOCK_OK);
        EXPECT_TRUE(advlock_key_equal(&back, &key));
    }
}

TEST(KeysC, ParseAndFormatRoundTrip) {
    advlock_key key;
    ASSERT_EQ(advlock_key_parse(&key, "100:1", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    const advlock_key expected = advlock_key_pair(100, 1);
    EXPECT_TRUE(advlock_key_equal(&key, &expected));
    char text[ADVLOCK_KEY_TEXT_SIZE];
    ASSERT_EQ(advlock_key_format(text, sizeof text, &key), ADVLOCK_OK);
    EXPECT_STREQ(text, "100:1");

    const advlock_key smallest = advlock_key_pair(INT32_MIN, INT32_MIN);
    ASSERT_EQ(advlock_key_format(text, sizeof text, &smallest), ADVLOCK_OK);
    EXPECT_STREQ(text, "-2147483648:-2147483648");
    // Only the first 3 bytes are the key: length-delimited input needs no NUL.
    ASSERT_EQ(advlock_key_parse(&key, "-42garbage", 3), ADVLOCK_OK);
    EXPECT_EQ(key.bigint, -42);
}

TEST(KeysC, BadTextIsEkeyAndLeavesOutUntouched) {
    advlock_key key = kSentinel;
    EXPECT_EQ(advlock_key_parse(&key, "100:", ADVLOCK_NUL_TERMINATED), ADVLOCK_EKEY);
    EXPECT_TRUE(advlock_key_equal(&key, &kSentinel));
    EXPECT_EQ(advlock_error_last()->status, ADVLOCK_EKEY);
    EXPECT_NE(last_message().find("second number of the pair is missing"), std::string::npos);

    EXPECT_EQ(advlock_key_from_name(&key, "a\0b", 3), ADVLOCK_EKEY);
    EXPECT_NE(last_message().find("NUL byte"), std::string::npos);
    EXPECT_EQ(advlock_key_from_name(&key, "", ADVLOCK_NUL_TERMINATED), ADVLOCK_EKEY);
    EXPECT_EQ(advlock_key_from_name_compat(&key, "\xFF", 1, 0), ADVLOCK_EKEY);
    EXPECT_TRUE(advlock_key_equal(&key, &kSentinel));
}

TEST(KeysC, NullArgumentsAreEinvalNamingTheArgument) {
    advlock_key key;
    advlock_pg_locks_key pg{};
    char text[ADVLOCK_KEY_TEXT_SIZE];
    EXPECT_EQ(advlock_key_from_name(nullptr, "x", 1), ADVLOCK_EINVAL);
    EXPECT_EQ(last_message(), "advlock_key_from_name: argument 'out' is NULL");
    EXPECT_EQ(advlock_key_from_name(&key, nullptr, 1), ADVLOCK_EINVAL);
    EXPECT_EQ(last_message(), "advlock_key_from_name: argument 'name' is NULL");
    EXPECT_EQ(advlock_key_from_name_compat(&key, nullptr, 1, 0), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_parse(&key, nullptr, 0), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_parse(nullptr, "1", 1), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_format(nullptr, 32, &key), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_format(text, sizeof text, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(last_message(), "advlock_key_format: argument 'key' is NULL");
    EXPECT_EQ(advlock_key_to_pg_locks(nullptr, &key), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_to_pg_locks(&pg, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_from_pg_locks(nullptr, &pg), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_from_pg_locks(&key, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_equal(nullptr, &key), 0);
    EXPECT_EQ(advlock_key_equal(&key, nullptr), 0);
}

TEST(KeysC, UnknownKeySpaceIsEinval) {
    advlock_key key = advlock_key_bigint(1);
    key.space = static_cast<advlock_key_space>(7);
    char text[ADVLOCK_KEY_TEXT_SIZE];
    EXPECT_EQ(advlock_key_format(text, sizeof text, &key), ADVLOCK_EINVAL);
    EXPECT_NE(last_message().find("key space 7 is neither"), std::string::npos);
    advlock_pg_locks_key pg;
    EXPECT_EQ(advlock_key_to_pg_locks(&pg, &key), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_key_equal(&key, &key), 0);
}

TEST(KeysC, FormatRefusesASmallBuffer) {
    const advlock_key key = advlock_key_pair(100, 1);
    char text[5] = "xxxx";
    EXPECT_EQ(advlock_key_format(text, sizeof text, &key), ADVLOCK_EINVAL);
    EXPECT_NE(last_message().find("buffer holds 5 bytes but the text needs 6"), std::string::npos);
    char exact[6];
    EXPECT_EQ(advlock_key_format(exact, sizeof exact, &key), ADVLOCK_OK);
    EXPECT_STREQ(exact, "100:1");
}

TEST(KeysC, BadPgLocksRowIsEkey) {
    const advlock_pg_locks_key pg{1, 2, 0};
    advlock_key key = kSentinel;
    EXPECT_EQ(advlock_key_from_pg_locks(&key, &pg), ADVLOCK_EKEY);
    EXPECT_TRUE(advlock_key_equal(&key, &kSentinel));
}

TEST(KeysC, EqualityComparesOnlyTheKeysSpaceFields) {
    advlock_key a = advlock_key_pair(1, 2), b = advlock_key_pair(1, 2);
    a.bigint = 99;  // not a pair's field
    EXPECT_TRUE(advlock_key_equal(&a, &b));
    const advlock_key c = advlock_key_bigint(0), d = advlock_key_pair(0, 0);
    EXPECT_FALSE(advlock_key_equal(&c, &d));
}

TEST(VersionC, MatchesTheHeader) {
    EXPECT_STREQ(advlock_version(), ADVLOCK_VERSION);
    EXPECT_EQ(advlock_version_number(), ADVLOCK_VERSION_NUMBER);
}
