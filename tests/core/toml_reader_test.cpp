// The TOML subset reader: what it accepts, and the line and words of what it refuses.
#include <gtest/gtest.h>

#include <string>

#include "toml/toml_reader.hpp"

using advlock::core::toml::parse;
using advlock::core::toml::SyntaxError;
using advlock::core::toml::Value;

namespace {

struct Failure {
    int line;
    std::string message;
};

Failure failure_of(const std::string &text) {
    try {
        parse(text);
    } catch (const SyntaxError &e) {
        return {e.line(), e.what()};
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return {0, ""};
}

#define EXPECT_REFUSED(text, expected_line, fragment)                                   \
    do {                                                                                \
        const Failure f = failure_of(text);                                             \
        EXPECT_EQ(f.line, expected_line) << f.message;                                  \
        EXPECT_NE(f.message.find(fragment), std::string::npos) << f.message;            \
    } while (0)

}  // namespace

TEST(TomlReader, ReadsTablesKeysAndValues) {
    const Value root = parse(
        "# a comment\n"
        "title = \"advlock\"  # trailing comment\n"
        "[locks.daily_sales]\n"
        "key = [100, 1]\n"
        "description = 'literal \\n stays'\n"
        "enabled = true\n"
        "\n"
        "[locks.\"日次 集計\"]\n"
        "key = 0x7f_ff\n");
    ASSERT_NE(root.find("title"), nullptr);
    EXPECT_EQ(root.find("title")->string, "advlock");
    const Value *locks = root.find("locks");
    ASSERT_NE(locks, nullptr);
    ASSERT_EQ(locks->keys.size(), 2u);
    EXPECT_EQ(locks->keys[0], "daily_sales");
    EXPECT_EQ(locks->keys[1], "日次 集計");
    const Value &daily = locks->members[0];
    EXPECT_EQ(daily.line, 3);
    ASSERT_EQ(daily.find("key")->items.size(), 2u);
    EXPECT_EQ(daily.find("key")->items[1].integer, 1);
    EXPECT_EQ(daily.find("key")->line, 4);
    EXPECT_EQ(daily.find("description")->string, "literal \\n stays");
    EXPECT_TRUE(daily.find("enabled")->boolean);
}

TEST(TomlReader, HexIsUnsignedSoSignedHexIsRefused) {
    // TOML allows signs only on decimal integers.
    EXPECT_REFUSED("k = -0x7f\n", 1, "unexpected value");
}

TEST(TomlReader, ReadsAllIntegerForms) {
    const Value root = parse("a = 1_000\nb = 0xDEAD_beef\nc = 0o755\nd = 0b1010\ne = -9223372036854775808\n"
                             "f = +9223372036854775807\ng = 0\nh = -0\n");
    EXPECT_EQ(root.find("a")->integer, 1000);
    EXPECT_EQ(root.find("b")->integer, 0xDEADBEEF);
    EXPECT_EQ(root.find("c")->integer, 0755);
    EXPECT_EQ(root.find("d")->integer, 10);
    EXPECT_EQ(root.find("e")->integer, INT64_MIN);
    EXPECT_EQ(root.find("f")->integer, INT64_MAX);
    EXPECT_EQ(root.find("g")->integer, 0);
    EXPECT_EQ(root.find("h")->integer, 0);
}

TEST(TomlReader, ReadsStringEscapesAndMultilineStrings) {
    const Value root = parse(
        "a = \"tab\\tquote\\\" \\u00e9 \\U0001F512\"\n"
        "b = \"\"\"\nfirst\nsecond \\\n    joined\"\"\"\n"
        "c = '''\nraw \\n ''' \n"
        "d = \"\"\"two quotes at the end\"\"\"\"\"\n");
    EXPECT_EQ(root.find("a")->string, "tab\tquote\" \xC3\xA9 \xF0\x9F\x94\x92");
    EXPECT_EQ(root.find("b")->string, "first\nsecond joined");
    EXPECT_EQ(root.find("c")->string, "raw \\n ");
    EXPECT_EQ(root.find("d")->string, "two quotes at the end\"\"");
    EXPECT_EQ(root.find("d")->line, 8);  // lines inside multi-line strings are counted
}

TEST(TomlReader, ReadsArraysAcrossLinesAndInlineTables) {
    const Value root = parse(
        "arr = [\n  1, # one\n  2,\n]\n"
        "empty = []\n"
        "nested = [[1], ['x']]\n"
        "point = { x = 1, y.z = 2 }\n"
        "dotted.key = \"v\"\n");
    EXPECT_EQ(root.find("arr")->items.size(), 2u);
    EXPECT_TRUE(root.find("empty")->items.empty());
    EXPECT_EQ(root.find("nested")->items[1].items[0].string, "x");
    EXPECT_EQ(root.find("point")->find("y")->find("z")->integer, 2);
    EXPECT_EQ(root.find("dotted")->find("key")->string, "v");
}

TEST(TomlReader, AcceptsCrLfAndAByteOrderMark) {
    const Value root = parse("\xEF\xBB\xBF" "a = 1\r\n[t]\r\nb = 2\r\n");
    EXPECT_EQ(root.find("t")->find("b")->integer, 2);
    EXPECT_EQ(root.find("t")->line, 2);
}

TEST(TomlReader, AllowsASuperTableAfterItsSubTables) {
    const Value root = parse("[a.b]\nx = 1\n[a]\ny = 2\n");
    EXPECT_EQ(root.find("a")->find("y")->integer, 2);
    EXPECT_EQ(root.find("a")->line, 3);
}

TEST(TomlReader, RefusesDuplicatesAndRedefinitions) {
    EXPECT_REFUSED("a = 1\na = 2\n", 2, "duplicate key a (first defined at line 1)");
    EXPECT_REFUSED("[t]\n\n[t]\n", 3, "table [t] is defined twice (first at line 1)");
    EXPECT_REFUSED("a = 1\n[a]\n", 2, "already an integer (line 1)");
    EXPECT_REFUSED("a = 1\n[a.b]\n", 2, "a is already an integer");
    EXPECT_REFUSED("[t]\nx.y = 1\n[t.x]\n", 3, "already defined by keys at line 2");
    EXPECT_REFUSED("t = {a = 1}\n[t.b]\n", 2, "inline table");
    EXPECT_REFUSED("[t.x]\n[t]\nx.y = 1\n", 3, "would extend the table x");
    EXPECT_REFUSED("a = {b = 1, b = 2}\n", 1, "duplicate key b");
}

TEST(TomlReader, RefusesUnsupportedTomlClearly) {
    EXPECT_REFUSED("[[jobs]]\n", 1, "arrays of tables");
    EXPECT_REFUSED("a = 1.5\n", 1, "floating-point numbers");
    EXPECT_REFUSED("a = 1e3\n", 1, "floating-point numbers");
    EXPECT_REFUSED("a = inf\n", 1, "floating-point numbers");
    EXPECT_REFUSED("a = 1979-05-27\n", 1, "dates and times");
    EXPECT_REFUSED("a = 07:32:00\n", 1, "dates and times");
}

TEST(TomlReader, RefusesMalformedSyntaxAtTheRightLine) {
    EXPECT_REFUSED("\n\na = \n", 3, "value is missing");
    EXPECT_REFUSED("a\n", 1, "has no value");
    EXPECT_REFUSED("a = nightly\n", 1, "expected a string in quotes");
    EXPECT_REFUSED("a = \"open\nb = 1\n", 1, "not closed on its line");
    EXPECT_REFUSED("a = 1 b = 2\n", 1, "after a complete statement");
    EXPECT_REFUSED("a = [1, 2\n\n", 1, "not closed with ']'");
    EXPECT_REFUSED("a = [1 2]\n", 1, "expected ',' or ']'");
    EXPECT_REFUSED("a = {b = 1,\n c = 2}\n", 1, "on the same line");
    EXPECT_REFUSED("a = 012\n", 1, "leading zero");
    EXPECT_REFUSED("a = 1__0\n", 1, "unexpected value");
    EXPECT_REFUSED("a = 9223372036854775808\n", 1, "out of range");
    EXPECT_REFUSED("a = -9223372036854775809\n", 1, "out of range");
    EXPECT_REFUSED("a = \"\\q\"\n", 1, "unknown escape \\q");
    EXPECT_REFUSED("a = \"\\uD800\"\n", 1, "no Unicode scalar value");
    EXPECT_REFUSED("a = \"bell\x07\"\n", 1, "control character U+0007");
    EXPECT_REFUSED("[a b]\n", 1, "expected ']'");
    EXPECT_REFUSED("= 1\n", 1, "key is missing");
    EXPECT_REFUSED("a.\"\"\"x\"\"\" = 1\n", 1, "multi-line string");
    EXPECT_REFUSED("a = 1\rb = 2\n", 1, "carriage return");
    EXPECT_REFUSED("ok = 1\nbad = \"\xC3\x28\"\n", 2, "invalid UTF-8");
}

TEST(TomlReader, LimitsNesting) {
    std::string deep = "a = " + std::string(100, '[') + std::string(100, ']') + "\n";
    EXPECT_REFUSED(deep, 1, "nested more than 16 deep");
    std::string inline_deep = "a = ";
    for (int i = 0; i < 100; ++i) inline_deep += "{b = ";
    inline_deep += "1" + std::string(100, '}') + "\n";
    EXPECT_REFUSED(inline_deep, 1, "nested more than 16 deep");
}
