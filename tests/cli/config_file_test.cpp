// The command's config file and durations (cli/config, cli/duration_text):
// every setting, file:line for every mistake, and files written to hurt
// (nested without end, huge keys, FIFOs and devices, passwords in invalid
// lines), refused at once with a bounded message, even on a small stack.
// These were C-ABI and core tests while the library parsed the file.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <pthread.h>
#include <string>
#include <sys/stat.h>

#include "config/config_file.hpp"
#include "duration_text.hpp"
#include "error.hpp"
#include "support/small_stack.hpp"
#include "support/temp_directory.hpp"
#include "toml/toml_reader.hpp"

using advlock::cli::ConfigFile;

using advlock::test::on_small_stack;

namespace {

// The message of the error that f raises; status is the one it must carry.
std::string refusal(const std::function<void()> &f, advlock_status status = ADVLOCK_ECONFIG) {
    try {
        f();
    } catch (const advlock::core::Error &e) {
        EXPECT_EQ(e.status(), status) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

std::string error_for(const std::string &text) {
    return refusal([&] { ConfigFile::parse(text, "advlock.toml"); });
}

std::string dotted_key(int segments) {
    std::string key = "a";
    for (int i = 1; i < segments; ++i) key += ".a";
    return key;
}

// No three consecutive bytes of secret appear in text.
void expect_no_piece_of(const std::string &secret, const std::string &text) {
    for (std::size_t i = 0; i + 3 <= secret.size(); ++i) {
        EXPECT_EQ(text.find(secret.substr(i, 3)), std::string::npos) << "'" << secret.substr(i, 3) << "' in " << text;
    }
}


}  // namespace

TEST(ConfigFile, ReadsEverySetting) {
    const ConfigFile config = ConfigFile::parse(
        "database = \"postgresql://batch@db1/sales\"\nregistry = \"/etc/advlock/registry.toml\"\nalso_local = true\n"
        "local_url = \"local:/run/locks\"\n"
        "[run]\nwait = \"30s\"\nkill_grace = \"1m\"\nconflict_exit_code = 0\n",
        "advlock.toml");
    EXPECT_EQ(config.get("database"), "postgresql://batch@db1/sales");
    EXPECT_EQ(config.get("registry"), "/etc/advlock/registry.toml");
    EXPECT_EQ(config.get("also_local"), "true");
    EXPECT_EQ(config.get("local_url"), "local:/run/locks");
    EXPECT_EQ(config.get("run.wait"), "30s");
    EXPECT_EQ(config.get("run.kill_grace"), "1m");
    EXPECT_EQ(config.get("run.conflict_exit_code"), "0");
    EXPECT_EQ(config.origin(), "advlock.toml");
    EXPECT_FALSE(ConfigFile::parse("", "empty.toml").get("database").has_value());
}

TEST(ConfigFile, RefusesMistakesWithFileAndLine) {
    EXPECT_NE(error_for("databse = \"x\"\n").find("advlock.toml:1: unknown setting 'databse'"), std::string::npos);
    EXPECT_NE(error_for("databse = \"x\"\n").find("did you mean 'database'?"), std::string::npos);
    EXPECT_NE(error_for("\n[run]\nwait = 30\n").find("advlock.toml:3: 'run.wait' must be a duration in quotes"),
              std::string::npos);
    EXPECT_NE(error_for("[run]\nwait = \"soon\"\n").find("advlock.toml:2: 'run.wait': duration 'soon'"),
              std::string::npos);
    EXPECT_NE(error_for("[run]\nkill_grace = \"1w\"\n").find("advlock.toml:2: 'run.kill_grace': duration '1w'"),
              std::string::npos);
    EXPECT_NE(error_for("[run]\nwait = \"25d\"\n").find("advlock.toml:2: 'run.wait' = '25d' is longer than the longest "
                                                        "wait, 2147483647ms"),
              std::string::npos);
    EXPECT_EQ(ConfigFile::parse("[run]\nwait = \"2147483647ms\"\n", "a.toml").get("run.wait"), "2147483647ms");
    // Only a wait is bounded by the backends' longest wait; a grace period is not.
    EXPECT_EQ(ConfigFile::parse("[run]\nkill_grace = \"25d\"\n", "a.toml").get("run.kill_grace"), "25d");
    EXPECT_NE(error_for("[run]\nconflict_exit_code = 256\n").find("from 0 to 255"), std::string::npos);
    EXPECT_NE(error_for("also_local = \"yes\"\n").find("must be true or false"), std::string::npos);
    EXPECT_NE(error_for("database = \"\"\n").find("non-empty string"), std::string::npos);
    EXPECT_NE(error_for("[other]\nx = 1\n").find("unknown setting 'other'"), std::string::npos);
    EXPECT_NE(error_for("database = \"x\"\ndatabase = \"y\"\n").find("advlock.toml:2: duplicate key"), std::string::npos);
}

TEST(DurationText, ReadsUnitsAndRefusesTheRest) {
    using advlock::cli::read_duration;
    EXPECT_EQ(read_duration("500ms")->count(), 500);
    EXPECT_EQ(read_duration("30")->count(), 30000);
    EXPECT_EQ(read_duration("30s")->count(), 30000);
    EXPECT_EQ(read_duration("10m")->count(), 600000);
    EXPECT_EQ(read_duration("2h")->count(), 7200000);
    EXPECT_EQ(read_duration("1d")->count(), 86400000);
    EXPECT_EQ(read_duration("36500d")->count(), 36500LL * 86400000);
    for (const char *bad : {"", "s", "1.5s", "-1s", "10 s", "1w", "36501d", "99999999999999d", "3153600000001ms",
                            "9999999999999999ms"}) {
        EXPECT_FALSE(read_duration(bad).has_value()) << bad;
    }
    // Every duration it takes reads the same written in ms (fuzz_duration's
    // property; seconds near the limit once had no ms spelling).
    EXPECT_EQ(read_duration("3153600000000ms")->count(), 3153600000000LL) << "100 years, the limit";
    for (const char *text : {"2047474744", "36500d", "1000000000000ms"}) {
        const auto parsed = read_duration(text);
        ASSERT_TRUE(parsed.has_value()) << text;
        EXPECT_EQ(read_duration(std::to_string(parsed->count()) + "ms"), parsed) << text;
    }
    EXPECT_EQ(advlock::cli::duration_refusal("so\x1bon").rfind("duration 'so\\x1Bon': give a number with a unit", 0), 0u);
}

TEST(ConfigFile, DeepNestingIsRefusedAtItsLineOnASmallStack) {
    // 80,000 segments overflowed a 1 MB stack (parsing, then destroying the tree).
    std::string inline_tables = "x = ";
    for (int i = 0; i < 20000; ++i) inline_tables += "{a = ";
    for (const std::string &text : {"database = \"x\"\n" + dotted_key(80000) + " = 1\n",
                                    "database = \"x\"\n[" + dotted_key(80000) + "]\n", "\n" + inline_tables}) {
        std::string message;
        on_small_stack([&] { message = error_for(text); });
        EXPECT_EQ(message.rfind("advlock.toml:2: tables, keys and arrays nested more than 16", 0), 0u)
            << message.substr(0, 300);
    }
    // At the limit the parser and the tree's destructor recurse 16 levels: the
    // document is valid TOML, refused only as an unknown setting.
    std::string deepest = "x = ";
    for (int i = 0; i < 15; ++i) deepest += "{a = ";
    deepest += "[1]" + std::string(15, '}') + "\n";
    std::string message;
    on_small_stack([&] { message = error_for(deepest); });
    EXPECT_EQ(message.rfind("advlock.toml:1: unknown setting 'x'", 0), 0u) << message;
}

TEST(ConfigFile, HugeKeysAndValuesGiveShortMessages) {
    const std::string huge(10 * 1024 * 1024, 'k');
    for (const std::string &text : {huge + " = 1\n", "\"" + huge + "\" = 1\n", "[" + huge + "]\n"}) {
        const std::string message = error_for(text);
        EXPECT_EQ(message.rfind("advlock.toml:1: a key of 10485760 bytes", 0), 0u) << message.substr(0, 300);
        EXPECT_LT(message.size(), 300u);
    }
    const std::string unknown = error_for(std::string(4000, 'k') + " = 1\n");
    EXPECT_NE(unknown.find("unknown setting"), std::string::npos);
    EXPECT_LT(unknown.size(), 400u);
    const std::string bad_value = error_for("database = " + huge + "\n");
    EXPECT_NE(bad_value.find("advlock.toml:1: unexpected value"), std::string::npos);
    EXPECT_LT(bad_value.size(), 300u);
    std::string many = "a = [";
    for (std::size_t i = 0; i < advlock::core::toml::kMaxValues; ++i) many += "1,";
    EXPECT_NE(error_for(many + "]\n").find("advlock.toml:1: more than 250000 values in one file"), std::string::npos);
}

TEST(ConfigFile, MessagesEscapeTerminalControls) {
    // An escape sequence in a key, a value or the file name reaches no terminal.
    const std::string message = refusal([] { ConfigFile::parse("\"\\u001b[2J\\u009b31m\" = 1\n", "a\x1b]0;x\x07.toml"); });
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
    EXPECT_EQ(message.find("\xc2\x9b"), std::string::npos) << message;
    EXPECT_EQ(message.find('\x07'), std::string::npos) << message;
    EXPECT_NE(message.find("\\x1B[2J\\u{009B}31m"), std::string::npos) << message;
    const std::string escape = error_for("a = \"\\\x1b\"\n");
    EXPECT_NE(escape.find("unknown escape \\\\x1B"), std::string::npos) << escape;
    EXPECT_EQ(escape.find('\x1b'), std::string::npos) << escape;
}

TEST(ConfigFile, PasswordsInInvalidLinesAreNotShown) {
    const std::string password = "Q7zX9kVwJ4";
    for (const std::string &line : {
             "database = postgresql://batch:" + password + "@db1/sales",
             "database = postgresql://a-very-long-user-name-for-batch-jobs:" + password + "@db1/sales",
             "database = mysql://batch:" + password + "@db1/sales?x=1 y",
             "database = host=db1 password=" + password + " dbname=sales",
             "database = \"postgresql://batch@db1/sales\" password=" + password,
             "\"postgresql://batch:" + password + "@db1/sales\" = 1",
             "\"postgresql://batch:" + password + "@db1/sales\"",
             "run.\"postgresql://batch:" + password + "@db1/sales\" = 1",
         }) {
        const std::string message = error_for("[run]\nwait = \"1s\"\n\n" + line + "\n");
        EXPECT_EQ(message.rfind("advlock.toml:4: ", 0), 0u) << message;
        expect_no_piece_of(password, message);
    }
    // A line too long to search for passwords is not quoted at all.
    const std::string long_line = error_for("database = x password=y " + std::string(5000, 'z') + "\n");
    EXPECT_NE(long_line.find("bytes, not shown"), std::string::npos) << long_line;
}

TEST(ConfigFile, PasswordsMadeOfAsterisksDoNotMultiplyTheMessage) {
    // Found by fuzz_config: each all-'*' secret matched redact()'s own
    // "********" again, so the message grew eightfold per secret.
    std::string line = "database = **";
    for (int i = 1; i <= 12; ++i) line += " password=" + std::string(static_cast<std::size_t>(i), '*');
    const std::string message = error_for(line + "\n");
    EXPECT_EQ(message.rfind("advlock.toml:1: unexpected value", 0), 0u) << message;
    EXPECT_LT(message.size(), 400u);
    // The input fuzz_config found (secrets from the line and from its value,
    // short ones first): minutes before, milliseconds now.
    std::ifstream found(std::string(ADVLOCK_TEST_DATA_DIR) + "/../fuzz/corpus/config/slow-asterisk-passwords",
                        std::ios::binary);
    const std::string slow((std::istreambuf_iterator<char>(found)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(slow.empty());
    EXPECT_LT(error_for(slow).size(), 400u);
    // A line too long to search for passwords is not quoted at all.
    const std::string long_line = error_for("database = x password=y " + std::string(5000, 'z') + "\n");
    EXPECT_NE(long_line.find("bytes, not shown"), std::string::npos) << long_line;
}

TEST(ConfigFile, FifosDevicesAndLargeFilesAreRefusedAtOnce) {
    advlock::test::TempDirectory dir("advlock-cli-config");
    const std::string fifo = dir.path() + "/config.toml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // With no writer, reading the FIFO would wait forever: it must not be read.
    const std::string fifo_message = refusal([&] { ConfigFile::load(fifo); }, ADVLOCK_EIO);
    EXPECT_NE(fifo_message.find("is a FIFO (named pipe); give a regular file"), std::string::npos) << fifo_message;
    const std::string zero = refusal([] { ConfigFile::load("/dev/zero"); }, ADVLOCK_EIO);
    EXPECT_NE(zero.find("config file '/dev/zero': it is a character device"), std::string::npos) << zero;
    const std::string big = dir.path() + "/big.toml";
    std::ofstream(big) << "# " << std::string(1024 * 1024, 'x') << "\n";
    const std::string large = refusal([&] { ConfigFile::load(big); }, ADVLOCK_EIO);
    EXPECT_NE(large.find("larger than the 1048576 bytes allowed for a config file"), std::string::npos) << large;
    const std::string path = dir.path() + "/advlock.toml";
    std::ofstream(path) << "[run]\nwait = \"5s\"\n";
    EXPECT_EQ(ConfigFile::load(path).get("run.wait"), "5s");
}
