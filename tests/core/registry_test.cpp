// Registry files: entries, lookups both ways, and a file:line message for
// every kind of mistake.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "error.hpp"
#include "keys/name_schemes.hpp"
#include "registry/registry.hpp"

using namespace advlock::core;

namespace {

std::string error_for(const std::string &text) {
    try {
        Registry::parse(text, "jobs.toml");
    } catch (const RegistryError &e) {
        EXPECT_EQ(e.status(), ADVLOCK_EREGISTRY);
        return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
}

#define EXPECT_REGISTRY_ERROR(text, fragment)                                          \
    do {                                                                               \
        const std::string message = error_for(text);                                   \
        EXPECT_NE(message.find(fragment), std::string::npos) << message;               \
    } while (0)

const char *kSample = R"(# Batch locks of the sales system
[locks.daily_sales]
key = [100, 1]
description = "Nightly sales aggregation"

[locks.monthly_close]
key = 7001

[locks.customer_sync]

[locks.sales_backfill]
key = [100, 1]
shares_with = ["daily_sales"]
)";

}  // namespace

TEST(Registry, ReadsEntriesInFileOrder) {
    const Registry registry = Registry::parse(kSample, "jobs.toml");
    ASSERT_EQ(registry.entries().size(), 4u);
    const RegistryEntry &daily = registry.entries()[0];
    EXPECT_EQ(daily.name, "daily_sales");
    EXPECT_EQ(daily.key, Key::pair(100, 1));
    EXPECT_EQ(daily.description, "Nightly sales aggregation");
    EXPECT_EQ(daily.line, 2);
    EXPECT_EQ(registry.entries()[1].key, Key::bigint(7001));
    EXPECT_TRUE(registry.entries()[2].key_from_name);
    EXPECT_EQ(registry.entries()[2].key, advlock_key_for_name("customer_sync"));
    EXPECT_EQ(registry.entries()[3].shares_with, std::vector<std::string>{"daily_sales"});
}

TEST(Registry, LooksUpNamesIgnoringCaseAndKeysToTheFirstHolder) {
    const Registry registry = Registry::parse(kSample, "jobs.toml");
    ASSERT_NE(registry.find_name("Daily_Sales"), nullptr);
    EXPECT_EQ(registry.find_name("Daily_Sales")->name, "daily_sales");
    EXPECT_EQ(registry.find_name("nope"), nullptr);
    EXPECT_EQ(registry.find_key(Key::pair(100, 1))->name, "daily_sales");
    EXPECT_EQ(registry.find_key(Key::bigint(7001))->name, "monthly_close");
    EXPECT_EQ(registry.find_key(Key::bigint(100)), nullptr);
    EXPECT_EQ(registry.require_key(Key::bigint(7001)).name, "monthly_close");
    EXPECT_THROW(registry.require_key(Key::pair(7001, 0)), NotFound);
}

TEST(Registry, RequireNameSuggestsTheNearestName) {
    const Registry registry = Registry::parse(kSample, "jobs.toml");
    try {
        registry.require_name("daily_sale");
        FAIL();
    } catch (const NotFound &e) {
        EXPECT_EQ(e.status(), ADVLOCK_ENOTFOUND);
        EXPECT_NE(std::string(e.what()).find("did you mean 'daily_sales'?"), std::string::npos) << e.what();
    }
    try {
        registry.require_name("zzzzzzzzzzzzzz");
        FAIL();
    } catch (const NotFound &e) {
        EXPECT_NE(std::string(e.what()).find("it has 4 locks"), std::string::npos) << e.what();
    }
}

TEST(Registry, AcceptsOtherTomlSpellingsOfTheSameTables) {
    const Registry registry = Registry::parse(
        "[locks]\n"
        "inline_job = { key = [1, 2], description = \"x\" }\n"
        "dotted_job.key = 5\n",
        "jobs.toml");
    EXPECT_EQ(registry.find_name("inline_job")->key, Key::pair(1, 2));
    EXPECT_EQ(registry.find_name("dotted_job")->key, Key::bigint(5));
    EXPECT_TRUE(Registry::parse("", "empty.toml").entries().empty());
}

TEST(Registry, RefusesDuplicateKeysUnlessShared) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [100, 1]\n\n[locks.b]\nkey = [100, 1]\n",
                          "jobs.toml:4: lock 'b' has key 100:1, already used by 'a' (line 1)");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [100, 1]\n\n[locks.b]\nkey = [100, 1]\n", "shares_with = [\"a\"]");
    // A bigint key that equals a name-derived key is a duplicate too.
    const std::string derived = std::to_string(advlock_key_for_name("a").bigint_value());
    EXPECT_REGISTRY_ERROR("[locks.a]\n[locks.b]\nkey = " + derived + "\n", "already used by 'a'");
    EXPECT_REGISTRY_ERROR("[locks.b]\nkey = " + derived + "\n[locks.a]\n", "(derived from its name)");
    // Declared in either direction, sharing is fine.
    EXPECT_NO_THROW(Registry::parse("[locks.a]\nkey=1\nshares_with=[\"b\"]\n[locks.b]\nkey=1\n", "x"));
    EXPECT_NO_THROW(Registry::parse("[locks.a]\nkey=1\n[locks.b]\nkey=1\nshares_with=[\"A\"]\n", "x"));
}

TEST(Registry, RefusesBrokenSharesWith) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = 1\nshares_with = [\"ghost\"]\n",
                          "jobs.toml:1: lock 'a': shares_with names 'ghost', which is not in this registry");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = 1\nshares_with = [\"b\"]\n[locks.b]\nkey = 2\n",
                          "their keys differ (1 and 2)");
    EXPECT_REGISTRY_ERROR("[locks.a]\nshares_with = \"b\"\n", "jobs.toml:2: lock 'a': shares_with must be an array");
    EXPECT_REGISTRY_ERROR("[locks.a]\nshares_with = [1]\n", "found an integer");
}

TEST(Registry, RefusesNamesThatDifferOnlyByCase) {
    EXPECT_REGISTRY_ERROR("[locks.Daily]\nkey = 1\n[locks.daily]\nkey = 2\n",
                          "jobs.toml:3: lock 'daily' differs from 'Daily' (line 1) only by case");
}

TEST(Registry, RefusesMalformedKeys) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1]\n", "jobs.toml:2: lock 'a': key must be a bigint");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1]\n", "this array has 1 element");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1, 2, 3]\n", "this array has 3 elements");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1, \"x\"]\n", "the second element is a string");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = \"100:1\"\n", "not a string; to use the name's own key, leave key out");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = true\n", "not a boolean");
}

TEST(Registry, RefusesOutOfRangeNumbers) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [2147483648, 1]\n",
                          "jobs.toml:2: lock 'a': the first number of the key, 2147483648, is out of the int4 range");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1,\n  -2147483649]\n", "jobs.toml:3: lock 'a': the second number");
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = 9223372036854775808\n", "jobs.toml:2: integer '9223372036854775808' is out of range");
}

TEST(Registry, RefusesUnknownFieldsAndTables) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = 1\ndescripton = \"x\"\n",
                          "jobs.toml:3: lock 'a': unknown field 'descripton'; known fields: key, description, "
                          "shares_with (did you mean 'description'?)");
    EXPECT_REGISTRY_ERROR("[jobs.a]\nkey = 1\n", "jobs.toml:1: unknown top-level key 'jobs'");
    EXPECT_REGISTRY_ERROR("locks = 5\n", "jobs.toml:1: 'locks' must be a table");
    EXPECT_REGISTRY_ERROR("[locks]\na = 5\n", "jobs.toml:2: lock 'a' must be a table");
    EXPECT_REGISTRY_ERROR("[locks.a]\ndescription = 5\n", "description must be a string, not an integer");
}

TEST(Registry, RefusesBadLockNames) {
    EXPECT_REGISTRY_ERROR("[locks.\"\"]\nkey = 1\n", "jobs.toml:1: lock name is empty");
    EXPECT_REGISTRY_ERROR("[locks.\"" + std::string(1025, 'x') + "\"]\n", "1025 bytes long");
    EXPECT_REGISTRY_ERROR("[locks.\"a\\u0000b\"]\n", "NUL byte");
}

TEST(Registry, ReportsSyntaxErrorsWithFileAndLine) {
    EXPECT_REGISTRY_ERROR("[locks.a]\nkey = [1, 2\n", "jobs.toml:2: array is not closed");
    EXPECT_REGISTRY_ERROR("[locks.a]\n[locks.a]\n", "jobs.toml:2: table [locks.a] is defined twice");
}

TEST(Registry, LoadsFilesAndReportsUnreadableOnes) {
    const std::string path = ::testing::TempDir() + "advlock_registry_test.toml";
    {
        std::ofstream out(path);
        out << kSample;
    }
    EXPECT_EQ(Registry::load_file(path).entries().size(), 4u);
    std::remove(path.c_str());

    try {
        Registry::load_file(path);
        FAIL();
    } catch (const IoError &e) {
        EXPECT_EQ(e.status(), ADVLOCK_EIO);
        EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("registry file"), std::string::npos);
    }
    try {
        Registry::load_file(::testing::TempDir());
        FAIL();
    } catch (const IoError &e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
}

TEST(Registry, MessagesNameTheFileGiven) {
    try {
        Registry::parse("[locks.a]\nkey = [1]\n", "/etc/advlock/registry.toml");
        FAIL();
    } catch (const RegistryError &e) {
        EXPECT_EQ(std::string(e.what()).rfind("/etc/advlock/registry.toml:2: ", 0), 0u) << e.what();
    }
}
