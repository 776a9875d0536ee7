// Config and registry files written to hurt: nested without end, huge keys,
// FIFOs and devices instead of files, passwords in invalid lines. Each is
// refused at once with file:line (or the file's name) and a bounded message.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>

#include "config/config_file.hpp"  // the command's config file (cli/), on the same TOML reader
#include "error.hpp"
#include "registry/registry.hpp"
#include "support/temp_directory.hpp"
#include "text/utf8.hpp"
#include "toml/toml_reader.hpp"

using namespace advlock::core;

namespace {

// The message of the ConfigError or RegistryError that parsing text raises.
template <typename Parse>
std::string refusal(Parse parse) {
    try {
        parse();
    } catch (const Error &e) {
        return e.what();
    }
    ADD_FAILURE() << "accepted";
    return {};
}

std::string config_refusal(const std::string &text) {
    return refusal([&] { advlock::cli::ConfigFile::parse(text, "advlock.toml"); });
}

std::string registry_refusal(const std::string &text) {
    return refusal([&] { Registry::parse(text, "jobs.toml"); });
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

TEST(HostileInput, DeepDottedKeysAreRefusedAtTheirLine) {
    // 80,000 segments overflowed the stack (parsing, then destroying the tree).
    const std::string message = config_refusal("database = \"x\"\n" + dotted_key(80000) + " = 1\n");
    EXPECT_EQ(message.rfind("advlock.toml:2: ", 0), 0u) << message.substr(0, 300);
    EXPECT_NE(message.find("nested more than 16 deep"), std::string::npos) << message.substr(0, 300);
    EXPECT_LT(message.size(), 400u);
    EXPECT_NE(registry_refusal("[locks.a]\n" + dotted_key(80000) + " = 1\n").find("jobs.toml:2: "), std::string::npos);
}

TEST(HostileInput, DepthCountsHeadersKeysArraysAndInlineTables) {
    // Sixteen levels are fine, seventeen are not, however they are made.
    EXPECT_NO_THROW(toml::parse(dotted_key(16) + " = 1\n"));
    EXPECT_NE(config_refusal(dotted_key(17) + " = 1\n").find("advlock.toml:1: tables, keys and arrays nested"),
              std::string::npos);
    EXPECT_NO_THROW(toml::parse("[" + dotted_key(15) + "]\nb = 1\n"));
    EXPECT_NE(config_refusal("[" + dotted_key(15) + "]\n\nb.c = 1\n").find("advlock.toml:3: "), std::string::npos);
    EXPECT_NE(config_refusal("[" + dotted_key(17) + "]\n").find("advlock.toml:1: tables, keys and arrays nested"),
              std::string::npos);
    EXPECT_NO_THROW(toml::parse("a = " + std::string(16, '[') + std::string(16, ']') + "\n"));
    EXPECT_NE(config_refusal("a = " + std::string(17, '[') + std::string(17, ']') + "\n").find("nested more than 16"),
              std::string::npos);
    std::string inline_tables = "[a.b]\nc = ";
    for (int i = 0; i < 14; ++i) inline_tables += "{d = ";
    inline_tables += "1" + std::string(14, '}') + "\n";
    EXPECT_NE(config_refusal(inline_tables).find("advlock.toml:2: tables, keys and arrays nested"), std::string::npos);
    // The deepest registry there is stays well inside.
    EXPECT_NO_THROW(Registry::parse("[locks.a]\nkey = [1, 2]\n", "jobs.toml"));
}

TEST(HostileInput, HugeKeysAndValuesGiveShortMessages) {
    const std::string huge(10 * 1024 * 1024, 'k');
    for (const std::string &text : {huge + " = 1\n", "\"" + huge + "\" = 1\n", "[" + huge + "]\n"}) {
        const std::string message = config_refusal(text);
        EXPECT_EQ(message.rfind("advlock.toml:1: a key of 10485760 bytes", 0), 0u) << message.substr(0, 300);
        EXPECT_LT(message.size(), 300u);
    }
    const std::string unknown = config_refusal(std::string(4000, 'k') + " = 1\n");
    EXPECT_NE(unknown.find("unknown setting"), std::string::npos);
    EXPECT_LT(unknown.size(), 400u);
    const std::string bad_value = config_refusal("database = " + huge + "\n");
    EXPECT_NE(bad_value.find("advlock.toml:1: unexpected value"), std::string::npos);
    EXPECT_LT(bad_value.size(), 300u);
    const std::string name = registry_refusal("[locks.\"" + std::string(3000, 'n') + "\"]\nkey = 1\n");
    EXPECT_NE(name.find("jobs.toml:1: "), std::string::npos);
    EXPECT_LT(name.size(), 400u);
}

TEST(HostileInput, TooManyValuesAreRefused) {
    std::string text = "a = [";
    for (std::size_t i = 0; i < toml::kMaxValues; ++i) text += "1,";
    text += "]\n";
    EXPECT_NE(config_refusal(text).find("advlock.toml:1: more than 250000 values in one file"), std::string::npos);
}

TEST(HostileInput, MessagesEscapeTerminalControls) {
    // An escape sequence in a key, a value or the file name reaches no terminal.
    const std::string message = refusal([] { advlock::cli::ConfigFile::parse("\"\\u001b[2J\\u009b31m\" = 1\n", "a\x1b]0;x\x07.toml"); });
    EXPECT_EQ(message.find('\x1b'), std::string::npos) << message;
    EXPECT_EQ(message.find("\xc2\x9b"), std::string::npos) << message;
    EXPECT_EQ(message.find('\x07'), std::string::npos) << message;
    EXPECT_NE(message.find("\\x1B[2J\\u{009B}31m"), std::string::npos) << message;
    EXPECT_TRUE(is_valid_utf8(registry_refusal("[locks.\"\\u001b\xff\"]\n")));
    // Found by fuzz_config: the byte after a backslash was quoted raw.
    const std::string escape = config_refusal("a = \"\\\x1b\"\n");
    EXPECT_NE(escape.find("unknown escape \\\\x1B"), std::string::npos) << escape;
    EXPECT_EQ(escape.find('\x1b'), std::string::npos) << escape;
}

TEST(HostileInput, PasswordsInInvalidConfigLinesAreNotShown) {
    const std::string password = "Q7zX9kVwJ4";
    for (const std::string &line : {
             "database = postgresql://batch:" + password + "@db1/sales",
             "database = postgresql://a-very-long-user-name-for-batch-jobs:" + password + "@db1/sales",
             "database = mysql://batch:" + password + "@db1/sales?x=1 y",
             "database = host=db1 password=" + password + " dbname=sales",
             "database = \"postgresql://batch@db1/sales\" password=" + password,
             "\"postgresql://batch:" + password + "@db1/sales\" = 1",
             "\"postgresql://a-very-long-user-name-for-batch-jobs:" + password + "@db1/sales\"",
             "\"postgresql://batch:" + password + "@db1/sales\"",
             "run.\"postgresql://batch:" + password + "@db1/sales\" = 1",
         }) {
        const std::string message = config_refusal("[run]\nwait = \"1s\"\n\n" + line + "\n");
        EXPECT_EQ(message.rfind("advlock.toml:4: ", 0), 0u) << message;
        expect_no_piece_of(password, message);
    }
}

TEST(HostileInput, PasswordsMadeOfAsterisksDoNotMultiplyTheMessage) {
    // Found by fuzz_config: each all-'*' secret matched redact()'s own
    // "********" again, so the message grew eightfold per secret.
    std::string line = "database = **";
    for (int i = 1; i <= 12; ++i) line += " password=" + std::string(static_cast<std::size_t>(i), '*');
    const std::string message = config_refusal(line + "\n");
    EXPECT_EQ(message.rfind("advlock.toml:1: unexpected value", 0), 0u) << message;
    EXPECT_LT(message.size(), 400u);
    // The input fuzz_config found (secrets from the line and from its value,
    // short ones first): minutes before, milliseconds now.
    std::ifstream found(std::string(ADVLOCK_TEST_DATA_DIR) + "/../fuzz/corpus/config/slow-asterisk-passwords",
                        std::ios::binary);
    const std::string slow((std::istreambuf_iterator<char>(found)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(slow.empty());
    EXPECT_LT(config_refusal(slow).size(), 400u);
    // A line too long to search for passwords is not quoted at all.
    const std::string long_line = config_refusal("database = x password=y " + std::string(5000, 'z') + "\n");
    EXPECT_NE(long_line.find("bytes, not shown"), std::string::npos) << long_line;
}

TEST(HostileInput, FifosDevicesAndDirectoriesAreRefusedAtOnce) {
    advlock::test::TempDirectory dir("advlock-hostile");
    const std::string fifo = dir.path() + "/config.toml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // With no writer, reading the FIFO would wait forever: it must not be read.
    const std::string fifo_message = refusal([&] { advlock::cli::ConfigFile::load(fifo); });
    EXPECT_NE(fifo_message.find("is a FIFO (named pipe); give a regular file"), std::string::npos) << fifo_message;
    const std::string zero = refusal([] { Registry::load_file("/dev/zero"); });
    EXPECT_NE(zero.find("registry file '/dev/zero': it is a character device"), std::string::npos) << zero;
    const std::string directory = refusal([&] { Registry::load_file(dir.path()); });
    EXPECT_NE(directory.find("it is a directory"), std::string::npos) << directory;
}

TEST(HostileInput, FilesLargerThanTheLimitAreRefusedByName) {
    advlock::test::TempDirectory dir("advlock-hostile");
    const std::string path = dir.path() + "/big.toml";
    std::ofstream(path) << "# " << std::string(4 * 1024 * 1024, 'x') << "\n";
    const std::string message = refusal([&] { Registry::load_file(path); });
    EXPECT_NE(message.find("larger than the 4194304 bytes allowed for a registry file"), std::string::npos) << message;
    const std::string config = refusal([&] { advlock::cli::ConfigFile::load(path); });
    EXPECT_NE(config.find("larger than the 1048576 bytes allowed for a config file"), std::string::npos) << config;
}
