// The configuration file: settings, and file:line for every mistake.
#include <gtest/gtest.h>

#include <string>

#include "config/config.hpp"
#include "error.hpp"
#include "text/duration.hpp"

using namespace advlock::core;

namespace {

std::string error_for(const std::string &text) {
    try {
        Config::parse(text, "advlock.toml");
    } catch (const ConfigError &e) {
        EXPECT_EQ(e.status(), ADVLOCK_ECONFIG);
        return e.what();
    }
    ADD_FAILURE() << "accepted:\n" << text;
    return {};
}

}  // namespace

TEST(Config, ReadsEverySetting) {
    const Config config = Config::parse(
        "database = \"postgresql://batch@db1/sales\"\nregistry = \"/etc/advlock/registry.toml\"\nalso_local = true\n"
        "[run]\nwait = \"30s\"\nkill_grace = \"1m\"\nconflict_exit_code = 0\n",
        "advlock.toml");
    EXPECT_EQ(config.get("database"), "postgresql://batch@db1/sales");
    EXPECT_EQ(config.get("registry"), "/etc/advlock/registry.toml");
    EXPECT_EQ(config.get("also_local"), "true");
    EXPECT_EQ(config.get("run.wait"), "30s");
    EXPECT_EQ(config.get("run.kill_grace"), "1m");
    EXPECT_EQ(config.get("run.conflict_exit_code"), "0");
    EXPECT_FALSE(Config::parse("", "empty.toml").get("database").has_value());
}

TEST(Config, RefusesMistakesWithFileAndLine) {
    EXPECT_NE(error_for("databse = \"x\"\n").find("advlock.toml:1: unknown setting 'databse'"), std::string::npos);
    EXPECT_NE(error_for("databse = \"x\"\n").find("did you mean 'database'?"), std::string::npos);
    EXPECT_NE(error_for("\n[run]\nwait = 30\n").find("advlock.toml:3: 'run.wait' must be a duration in quotes"),
              std::string::npos);
    EXPECT_NE(error_for("[run]\nwait = \"soon\"\n").find("advlock.toml:2: 'run.wait': duration 'soon'"),
              std::string::npos);
    EXPECT_NE(error_for("[run]\nwait = \"25d\"\n").find("advlock.toml:2: 'run.wait' = '25d' is longer than the longest "
                                                "wait, 2147483647ms"),
              std::string::npos);
    EXPECT_EQ(Config::parse("[run]\nwait = \"2147483647ms\"\n", "a.toml").get("run.wait"), "2147483647ms");
    EXPECT_NE(error_for("[run]\nconflict_exit_code = 256\n").find("from 0 to 255"), std::string::npos);
    EXPECT_NE(error_for("also_local = \"yes\"\n").find("must be true or false"), std::string::npos);
    EXPECT_NE(error_for("database = \"\"\n").find("non-empty string"), std::string::npos);
    EXPECT_NE(error_for("[other]\nx = 1\n").find("unknown setting 'other'"), std::string::npos);
    EXPECT_NE(error_for("database = \"x\"\ndatabase = \"y\"\n").find("advlock.toml:2: duplicate key"), std::string::npos);
}

TEST(Duration, ParsesUnitsAndRefusesTheRest) {
    EXPECT_EQ(parse_duration("500ms").count(), 500);
    EXPECT_EQ(parse_duration("30").count(), 30000);
    EXPECT_EQ(parse_duration("30s").count(), 30000);
    EXPECT_EQ(parse_duration("10m").count(), 600000);
    EXPECT_EQ(parse_duration("2h").count(), 7200000);
    EXPECT_EQ(parse_duration("1d").count(), 86400000);
    for (const char *bad : {"", "s", "1.5s", "-1s", "10 s", "1w", "99999999999999d"}) {
        EXPECT_THROW(parse_duration(bad), InvalidArgument) << bad;
    }
}
