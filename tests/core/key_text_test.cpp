// Keys as text: the three accepted forms, the canonical output, and the
// messages for everything else.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "keys/name_schemes.hpp"

using namespace advlock::core;

namespace {

std::string error_for(const std::string &text) {
    try {
        parse_key(text);
    } catch (const BadKey &e) {
        return e.what();
    }
    ADD_FAILURE() << "parse_key accepted " << text;
    return {};
}

}  // namespace

TEST(KeyText, ParsesPairsBigintsAndNames) {
    EXPECT_EQ(parse_key("100:1"), Key::pair(100, 1));
    EXPECT_EQ(parse_key("-5:7"), Key::pair(-5, 7));
    EXPECT_EQ(parse_key("2147483647:-2147483648"), Key::pair(INT32_MAX, INT32_MIN));
    EXPECT_EQ(parse_key("-42"), Key::bigint(-42));
    EXPECT_EQ(parse_key("0"), Key::bigint(0));
    EXPECT_EQ(parse_key("9223372036854775807"), Key::bigint(INT64_MAX));
    EXPECT_EQ(parse_key("-9223372036854775808"), Key::bigint(INT64_MIN));
    EXPECT_EQ(parse_key("name:daily_sales"), advlock_key_for_name("daily_sales"));
    // Everything after the prefix is the name, colons included.
    EXPECT_EQ(parse_key("name:a:b"), advlock_key_for_name("a:b"));
}

TEST(KeyText, FormatRoundTrips) {
    for (const Key &key : {Key::pair(100, 1), Key::pair(INT32_MIN, INT32_MAX), Key::bigint(INT64_MIN),
                           Key::bigint(INT64_MAX), Key::bigint(-42), advlock_key_for_name("x")}) {
        EXPECT_EQ(parse_key(format_key(key)), key) << format_key(key);
    }
    EXPECT_EQ(format_key(Key::pair(100, 1)), "100:1");
    EXPECT_EQ(format_key(Key::bigint(-42)), "-42");
}

TEST(KeyText, ExplainsMalformedText) {
    EXPECT_NE(error_for("").find("empty key"), std::string::npos);
    EXPECT_NE(error_for("100:").find("second number of the pair is missing"), std::string::npos);
    EXPECT_NE(error_for(":1").find("first number of the pair is missing"), std::string::npos);
    EXPECT_NE(error_for("1:x").find("'x' is not a decimal number"), std::string::npos);
    EXPECT_NE(error_for("1:2:3").find("'2:3' is not a decimal number"), std::string::npos);
    EXPECT_NE(error_for("daily").find("did you mean 'name:daily'?"), std::string::npos);
    EXPECT_NE(error_for(" 42").find("no spaces"), std::string::npos);
    EXPECT_NE(error_for("+42").find("without '+'"), std::string::npos);
    EXPECT_NE(error_for("name:").find("lock name is empty"), std::string::npos);
    EXPECT_NE(error_for("-").find("expected a bigint"), std::string::npos);
}

TEST(KeyText, NamesTheRangeOfOutOfRangeNumbers) {
    const std::string pair = error_for("4294967291:7");
    EXPECT_NE(pair.find("4294967291 is out of the int4 range -2147483648..2147483647"), std::string::npos) << pair;
    EXPECT_NE(pair.find("advlock_key_from_pg_locks"), std::string::npos);
    const std::string bigint = error_for("9223372036854775808");
    EXPECT_NE(bigint.find("out of the bigint range"), std::string::npos) << bigint;
}

TEST(KeyText, MessagesEscapeControlAndInvalidBytes) {
    const std::string message = error_for(std::string("a\x01\xFF", 3));
    EXPECT_NE(message.find("'a\\x01\\xFF'"), std::string::npos) << message;
}
