// Message helpers and password redaction.
#include <gtest/gtest.h>

#include <string>

#include "text/message_text.hpp"
#include "text/redact.hpp"
#include "text/utf8.hpp"

using namespace advlock::core;

TEST(Utf8, FindsTheFirstInvalidByte) {
    EXPECT_FALSE(first_invalid_utf8("plain ascii"));
    EXPECT_FALSE(first_invalid_utf8("\xE6\x97\xA5\xE6\xAC\xA1 \xF0\x9F\x94\x92"));
    EXPECT_EQ(first_invalid_utf8("ok\x80"), 2u);              // lone continuation byte
    EXPECT_EQ(first_invalid_utf8("\xE6\x97"), 0u);            // truncated
    EXPECT_EQ(first_invalid_utf8("a\xF4\x90\x80\x80"), 1u);   // above U+10FFFF
    EXPECT_EQ(first_invalid_utf8("\xC1\xBF"), 0u);            // overlong
}

TEST(MessageText, QuotesAndShortens) {
    EXPECT_EQ(quoted("abc"), "'abc'");
    EXPECT_EQ(quoted(std::string(100, 'x'), 10), "'" + std::string(10, 'x') + "'...");
    // Never cuts a multi-byte character in half.
    EXPECT_EQ(quoted("ab\xE6\x97\xA5", 3), "'ab'...");
    EXPECT_EQ(quoted("tab\there"), "'tab\\x09here'");
}

TEST(MessageText, SuggestsOnlyCloseNames) {
    const std::vector<std::string> names = {"daily_sales", "monthly_close"};
    EXPECT_EQ(closest_match("daily_sale", names), "daily_sales");
    EXPECT_EQ(closest_match("MONTHLY_CLOSE", names), "monthly_close");
    EXPECT_EQ(closest_match("backup", names), "");
}

TEST(Redact, FindsPasswordsInUrlsAndConninfo) {
    const auto secrets = secrets_in_conninfo("postgresql://app:s3cr%40t@db:5432/sales?password=other&x=1");
    const std::string message = redact("auth failed for s3cr%40t / s3cr@t / other", secrets);
    EXPECT_EQ(message.find("s3cr"), std::string::npos) << message;
    EXPECT_EQ(message.find("other"), std::string::npos) << message;

    const auto keyword = secrets_in_conninfo("host=db password = 'pa ss\\'w' user=x");
    // What was put in is never searched again: asterisk passwords cannot make it grow.
    EXPECT_EQ(redact("x*y**z", {"*", "**", "*"}), "x********y********z");
    EXPECT_EQ(redact("got pa ss'w here", keyword), "got ******** here");
    EXPECT_EQ(redact("got hunter2", secrets_in_conninfo("password=hunter2")), "got ********");
    // Malformed URLs still have their password found.
    EXPECT_EQ(redact("bad hunter2", secrets_in_conninfo("postgresql://u:hunter2@h:notaport/db")), "bad ********");
    EXPECT_TRUE(secrets_in_conninfo("postgresql://u@h/db").empty());
}
