// Registries through the C ABI: loading, lookups, entries, NULL and bad input.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "advlock.h"

namespace {

const char kRegistry[] =
    "[locks.daily_sales]\n"
    "key = [100, 1]\n"
    "description = \"Nightly sales aggregation\"\n"
    "\n"
    "[locks.monthly_close]\n"
    "key = 7001\n";

struct RegistryFree {
    void operator()(advlock_registry *r) const { advlock_registry_free(r); }
};
using RegistryPtr = std::unique_ptr<advlock_registry, RegistryFree>;

RegistryPtr parse_sample() {
    advlock_registry *registry = nullptr;
    EXPECT_EQ(advlock_registry_parse(&registry, kRegistry, ADVLOCK_NUL_TERMINATED, "jobs.toml"), ADVLOCK_OK);
    return RegistryPtr(registry);
}

}  // namespace

TEST(RegistryC, IteratesEntriesInFileOrder) {
    const RegistryPtr registry = parse_sample();
    ASSERT_EQ(advlock_registry_count(registry.get()), 2u);
    const advlock_registry_entry *first = advlock_registry_at(registry.get(), 0);
    ASSERT_NE(first, nullptr);
    EXPECT_STREQ(advlock_registry_entry_name(first), "daily_sales");
    EXPECT_STREQ(advlock_registry_entry_description(first), "Nightly sales aggregation");
    EXPECT_EQ(advlock_registry_entry_line(first), 1u);
    advlock_target target;
    ASSERT_EQ(advlock_registry_entry_target(&target, first), ADVLOCK_OK);
    const advlock_key expected = advlock_key_pair(100, 1);
    EXPECT_TRUE(advlock_key_equal(&target.key, &expected));
    EXPECT_EQ(target.name, nullptr) << "a key of its own: MySQL locks the key, not the name";
    EXPECT_STREQ(advlock_registry_entry_description(advlock_registry_at(registry.get(), 1)), "");
    EXPECT_EQ(advlock_registry_at(registry.get(), 2), nullptr);
}

TEST(RegistryC, FindsByNameAndByKey) {
    const RegistryPtr registry = parse_sample();
    const advlock_registry_entry *entry = nullptr;
    ASSERT_EQ(advlock_registry_find_name(&entry, registry.get(), "MONTHLY_CLOSE", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    EXPECT_STREQ(advlock_registry_entry_name(entry), "monthly_close");

    const advlock_key key = advlock_key_pair(100, 1);
    ASSERT_EQ(advlock_registry_find_key(&entry, registry.get(), &key), ADVLOCK_OK);
    EXPECT_STREQ(advlock_registry_entry_name(entry), "daily_sales");
}

TEST(RegistryC, MissingEntriesAreEnotfoundAndOutIsNull) {
    const RegistryPtr registry = parse_sample();
    const advlock_registry_entry *entry = advlock_registry_at(registry.get(), 0);
    EXPECT_EQ(advlock_registry_find_name(&entry, registry.get(), "daily_sale", ADVLOCK_NUL_TERMINATED),
              ADVLOCK_ENOTFOUND);
    EXPECT_EQ(entry, nullptr);
    EXPECT_NE(std::string(advlock_error_last()->message).find("did you mean 'daily_sales'?"), std::string::npos);

    const advlock_key key = advlock_key_bigint(1);
    entry = advlock_registry_at(registry.get(), 0);
    EXPECT_EQ(advlock_registry_find_key(&entry, registry.get(), &key), ADVLOCK_ENOTFOUND);
    EXPECT_EQ(entry, nullptr);
    EXPECT_NE(std::string(advlock_error_last()->message).find("no lock with key 1"), std::string::npos);
}

TEST(RegistryC, InvalidTextIsEregistryWithFileAndLine) {
    advlock_registry *registry = reinterpret_cast<advlock_registry *>(0x1);
    const char text[] = "[locks.a]\nkey = [1]\n";
    EXPECT_EQ(advlock_registry_parse(&registry, text, sizeof text - 1, "jobs.toml"), ADVLOCK_EREGISTRY);
    EXPECT_EQ(registry, nullptr);
    EXPECT_EQ(std::string(advlock_error_last()->message).rfind("jobs.toml:2: ", 0), 0u);

    EXPECT_EQ(advlock_registry_parse(&registry, text, sizeof text - 1, nullptr), ADVLOCK_EREGISTRY);
    EXPECT_EQ(std::string(advlock_error_last()->message).rfind("<registry>:2: ", 0), 0u);
}

TEST(RegistryC, OpensFilesAndReportsMissingOnes) {
    const std::string path = ::testing::TempDir() + "advlock_registry_c_test.toml";
    {
        std::ofstream out(path);
        out << kRegistry;
    }
    advlock_registry *registry = nullptr;
    ASSERT_EQ(advlock_registry_open(&registry, path.c_str()), ADVLOCK_OK);
    EXPECT_EQ(advlock_registry_count(registry), 2u);
    advlock_registry_free(registry);
    std::remove(path.c_str());

    EXPECT_EQ(advlock_registry_open(&registry, path.c_str()), ADVLOCK_EIO);
    EXPECT_EQ(registry, nullptr);
    EXPECT_NE(std::string(advlock_error_last()->message).find(path), std::string::npos);
}

TEST(RegistryC, NullArgumentsAreSafe) {
    advlock_registry *registry = nullptr;
    const advlock_registry_entry *entry = nullptr;
    advlock_key key = advlock_key_bigint(1);
    advlock_target target;
    EXPECT_EQ(advlock_registry_open(nullptr, "x"), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_registry_open(&registry, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_registry_parse(&registry, nullptr, 0, "x"), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_registry_find_name(&entry, nullptr, "x", 1), ADVLOCK_EINVAL);
    EXPECT_EQ(std::string(advlock_error_last()->message), "advlock_registry_find_name: argument 'registry' is NULL");
    EXPECT_EQ(advlock_registry_find_key(&entry, nullptr, &key), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_registry_entry_target(&target, nullptr), ADVLOCK_EINVAL);
    EXPECT_EQ(advlock_registry_count(nullptr), 0u);
    EXPECT_EQ(advlock_registry_at(nullptr, 0), nullptr);
    EXPECT_EQ(advlock_registry_entry_name(nullptr), nullptr);
    EXPECT_EQ(advlock_registry_entry_description(nullptr), nullptr);
    EXPECT_EQ(advlock_registry_entry_line(nullptr), 0u);
    advlock_registry_free(nullptr);
}
