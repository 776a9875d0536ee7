// The psql expression DESIGN.md and the README document for the advlock scheme
// must give the library's key for every name, on a real server.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "advlock.h"
#include "support/key_vectors.hpp"
#include "support/test_postgres.hpp"
#include "text/utf8.hpp"

namespace {

// Names that exercise the scheme: ASCII, quotes, backslashes, spaces, 2-, 3-
// and 4-byte UTF-8, lengths from 1 to the 1024-byte limit.
std::string random_name(std::mt19937 &random) {
    static const char32_t kPieces[] = {U'a', U'Z', U'0', U'_', U'-', U' ', U'\'', U'"', U'\\', U'%', U'\t',
                                       U'é', U'ß', U'Ω', U'日', U'本', U'ー', U'🔒', U'𝄞', U'\u00A0', U'\u2028'};
    std::uniform_int_distribution<int> length_pick(0, 99);
    const int roll = length_pick(random);
    const std::size_t target = roll < 70 ? 1 + roll % 24 : roll < 95 ? 25 + roll * 3 : 1024;
    std::uniform_int_distribution<std::size_t> piece(0, sizeof kPieces / sizeof kPieces[0] - 1);
    std::string name;
    for (;;) {
        std::string next;
        advlock::core::append_utf8(next, kPieces[piece(random)]);
        if (name.size() + next.size() > target) break;
        name += next;
    }
    if (name.empty()) name = "x";
    return name;
}

// The documented expression with the name as a bound parameter.
std::string expression_sql() {
    std::string sql = advlock::test::load_key_vectors().sql_expression;
    sql.replace(sql.find("NAME"), 4, "$1::text");
    return "SELECT " + sql;
}

}  // namespace

TEST(SqlExpression, MatchesTheLibraryForGeneratedNames) {
    advlock::test::Psql psql;
    ASSERT_EQ(psql.value("SHOW server_encoding"), "UTF8");
    const std::string sql = expression_sql();
    std::mt19937 random(20261130);
    int checked = 0;
    for (int i = 0; i < 400; ++i) {
        const std::string name = random_name(random);
        advlock_key key;
        ASSERT_EQ(advlock_key_from_name(&key, name.data(), name.size()), ADVLOCK_OK) << advlock_error_last()->message;
        ASSERT_EQ(psql.value(sql, {name}), std::to_string(key.bigint)) << "name: " << name;
        ++checked;
    }
    EXPECT_EQ(checked, 400);
}

TEST(SqlExpression, MatchesEveryVector) {
    advlock::test::Psql psql;
    const std::string sql = expression_sql();
    for (const auto &v : advlock::test::load_key_vectors().names) {
        EXPECT_EQ(psql.value(sql, {v.name}), std::to_string(v.advlock)) << v.name;
    }
}
