// printable() and quoted(): what reaches a terminal from outside is escaped and bounded.
#include <gtest/gtest.h>

#include <string>

#include "text/message_text.hpp"
#include "text/utf8.hpp"

using namespace advlock::core;

TEST(Printable, EscapesEveryKindOfControl) {
    EXPECT_EQ(printable("plain \xE6\x97\xA5 text"), "plain \xE6\x97\xA5 text");
    EXPECT_EQ(printable("\x1b[31mred\x1b[0m"), "\\x1B[31mred\\x1B[0m");
    EXPECT_EQ(printable("a\nb\rc\x7f"), "a\\x0Ab\\x0Dc\\x7F");
    // C1 controls are valid UTF-8 but act like ESC [ on many terminals.
    EXPECT_EQ(printable("\xC2\x9B" "2J"), "\\u{009B}2J");
    // Bidirectional overrides reorder what the reader sees.
    EXPECT_EQ(printable("abc\xE2\x80\xAE" "fed"), "abc\\u{202E}fed");
    EXPECT_EQ(printable("bad\xff\xC3"), "bad\\xFF\\xC3");
}

TEST(Printable, BoundsWithoutCuttingCharacters) {
    const std::string huge(10 * 1024 * 1024, 'x');
    EXPECT_EQ(printable(huge), std::string(kQuotedBytes, 'x') + "...");
    EXPECT_EQ(printable(huge, 5), "xxxxx...");
    EXPECT_EQ(printable("ab\xE6\x97\xA5", 3), "ab...");
    // Escapes are at most 8 bytes for each byte of input.
    EXPECT_LE(printable(std::string(1000, '\x1b'), 100).size(), 8u * 100 + 3);
    EXPECT_TRUE(is_valid_utf8(printable("\xE6\x97\xA5\xE6\x97\xA5", 4)));
}

TEST(Utf8, ReplacesInvalidBytes) {
    EXPECT_EQ(replace_invalid_utf8("ok"), "ok");
    EXPECT_EQ(replace_invalid_utf8("a\xff" "b\xE6\x97"), "a\xEF\xBF\xBD" "b\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_EQ(replace_invalid_utf8("\xE6\x97\xA5"), "\xE6\x97\xA5");
}

TEST(Printable, QuotedPutsTheEllipsisOutside) {
    EXPECT_EQ(quoted("abcdef", 3), "'abc'...");
    EXPECT_EQ(quoted("a\x1b"), "'a\\x1B'");
}

TEST(ClosestMatch, CountsASwapOfNeighboursAsOneTypo) {
    const std::vector<std::string> words = {"local", "postgres"};
    EXPECT_EQ(closest_match("loacl", words), "local");
    EXPECT_EQ(closest_match("postgers", words), "postgres");
    EXPECT_EQ(closest_match("lcoal", words), "local");
    EXPECT_EQ(closest_match("xyz", words), "");
}
