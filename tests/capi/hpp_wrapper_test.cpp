// The header-only C++ wrapper: values, RAII and exception types.
#include <gtest/gtest.h>

#include "advlock.hpp"

TEST(HppWrapper, KeysCompareFormatAndParse) {
    const advlock::key pair = advlock::key::pair(100, 1);
    EXPECT_EQ(pair.to_string(), "100:1");
    EXPECT_EQ(advlock::key::parse("100:1"), pair);
    EXPECT_NE(advlock::key::parse("100:2"), pair);
    EXPECT_TRUE(pair.is_pair());
    EXPECT_EQ(advlock::key::from_name("daily_sales"), advlock::key::bigint(-671140887899735099));
    EXPECT_EQ(advlock::key::from_name_compat("daily_sales", 42), advlock::key::pair(1805652368, 42));
    EXPECT_EQ(advlock::key::from_pg_locks(advlock::key::bigint(-1).to_pg_locks()), advlock::key::bigint(-1));
}

TEST(HppWrapper, BadInputThrowsTypedExceptions) {
    EXPECT_THROW(advlock::key::parse("100:"), advlock::bad_key);
    EXPECT_THROW(advlock::key::from_name(std::string("a\0b", 3)), advlock::bad_key);
    EXPECT_THROW(advlock::registry::parse("[locks.a]\nkey = [1]\n"), advlock::registry_error);
    EXPECT_THROW(advlock::registry::open("/nonexistent/registry.toml"), advlock::io_error);
    EXPECT_THROW(advlock::session::open("postgresql://u:pw@127.0.0.1:1/db"), advlock::connect_error);
    try {
        advlock::key::parse("x");
    } catch (const advlock::error &e) {
        EXPECT_EQ(e.status(), ADVLOCK_EKEY);
        EXPECT_NE(std::string(e.what()).find("did you mean 'name:x'?"), std::string::npos);
    }
}

TEST(HppWrapper, RegistryLookups) {
    const advlock::registry registry = advlock::registry::parse("[locks.a]\nkey = [1, 2]\n[locks.b]\n", "r.toml");
    ASSERT_EQ(registry.size(), 2u);
    EXPECT_EQ(registry.at(0).name(), "a");
    EXPECT_EQ(registry.find("A").key(), advlock::key::pair(1, 2));
    EXPECT_EQ(registry.find("b").key(), advlock::key::from_name("b"));
    ASSERT_TRUE(registry.find(advlock::key::pair(1, 2)).has_value());
    EXPECT_EQ(registry.find(advlock::key::pair(1, 2))->name(), "a");
    EXPECT_FALSE(registry.find(advlock::key::pair(9, 9)).has_value());
    EXPECT_THROW(registry.find("c"), advlock::not_found);
    EXPECT_THROW(registry.at(2), std::out_of_range);
}
