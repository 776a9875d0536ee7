// The real advlock binary given odd or hostile input: names that begin with
// '-', typos of backend names, waits longer than any backend accepts, escape
// sequences in lock and process names, FIFOs and passwords in config files.
// No database: what is refused is refused before connecting, and the local
// backend stands in for a holder.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "advlock.h"
#include "support/child_process.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

const std::string kAdvlock = ADVLOCK_CLI;
// Nothing listens on port 1: reaching the connection fails with exit 69.
const std::string kNowhere = "postgresql://batch@127.0.0.1:1/sales";

struct Outcome {
    int code;
    std::string output;  // stdout and stderr together
};

Outcome run_binary(const std::string &binary, std::vector<std::string> args) {
    args.insert(args.begin(), binary);
    ChildProcess child(args, /*merge_stderr=*/true);
    std::string output = child.read_all();
    return {child.wait(), output};
}

Outcome advlock_cli(const std::vector<std::string> &args) { return run_binary(kAdvlock, args); }

std::string key_text_of_name(const std::string &name) {
    advlock_key key;
    EXPECT_EQ(advlock_key_from_name(&key, name.c_str(), ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    char text[ADVLOCK_KEY_TEXT_SIZE];
    EXPECT_EQ(advlock_key_format(text, sizeof text, &key), ADVLOCK_OK);
    return text;
}

}  // namespace

TEST(CliInputs, DoubleDashEndsOptionsForNamesBeginningWithADash) {
    const Outcome dashed = advlock_cli({"key", "--", "-x"});
    EXPECT_EQ(dashed.code, 0) << dashed.output;
    EXPECT_EQ(dashed.output.rfind(key_text_of_name("-x") + "\n", 0), 0u) << dashed.output;
    const Outcome options_first = advlock_cli({"key", "--sql", "--", "--help"});
    EXPECT_EQ(options_first.code, 0) << options_first.output;
    EXPECT_NE(options_first.output.find("'advlock:' OPERATOR(pg_catalog.||) '--help'"), std::string::npos) << options_first.output;
    // Without "--", a leading '-' is an option, and the message says what to do.
    const Outcome refused = advlock_cli({"key", "-x"});
    EXPECT_EQ(refused.code, 64);
    EXPECT_NE(refused.output.find("put \"--\" before a name that begins with '-'"), std::string::npos)
        << refused.output;
    EXPECT_EQ(advlock_cli({"key", "--", "a", "b"}).code, 64);
}

TEST(CliInputs, BackendTyposGetADidYouMean) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"locall", "did you mean 'local'?"},
        {"loacl:/run/lock/x", "did you mean 'local:'?"},
        {"postgress://db1/sales", "did you mean 'postgres://'?"},
        {"mysq://batch@db1/sales", "did you mean 'mysql://'?"},
        {"POSTGRESQL://db1/sales", "did you mean 'postgresql://'?"},
    };
    for (const auto &[url, hint] : cases) {
        for (const char *command : {"run", "status"}) {
            std::vector<std::string> args = {command, "--db", url, "--key", "1:2"};
            if (std::string(command) == "run") args.insert(args.end(), {"--", "true"});
            const Outcome outcome = advlock_cli(args);
            EXPECT_EQ(outcome.code, 64) << url << ": " << outcome.output;
            EXPECT_NE(outcome.output.find(hint), std::string::npos) << outcome.output;
            if (url.find(':') != std::string::npos) {
                EXPECT_NE(outcome.output.find("names no advlock backend"), std::string::npos) << outcome.output;
            }
        }
    }
    const Outcome bare = advlock_cli({"status", "--db", "locall"});
    EXPECT_NE(bare.output.find("the database URL 'locall' is neither a URL nor a libpq key=value string"),
              std::string::npos)
        << bare.output;
    // A mistyped scheme is named, the password after it is not.
    const Outcome secret = advlock_cli({"status", "--db", "postgresq://batch:Q7zX9kVw@db1/sales"});
    EXPECT_EQ(secret.code, 64);
    EXPECT_EQ(secret.output.find("Q7zX9kVw"), std::string::npos) << secret.output;
    EXPECT_EQ(secret.output.find("batch"), std::string::npos) << secret.output;
}

TEST(CliInputs, WaitsLongerThanTheBackendsAcceptAreRefusedBeforeConnecting) {
    for (const char *command : {"run", "hold"}) {
        std::vector<std::string> args = {command, "--db", kNowhere, "--key", "1:2", "--wait", "25d"};
        if (std::string(command) == "run") args.insert(args.end(), {"--", "true"});
        const Outcome outcome = advlock_cli(args);
        EXPECT_EQ(outcome.code, 64) << outcome.output;
        EXPECT_NE(outcome.output.find(std::string("advlock ") + command +
                                      ": --wait 25d is longer than the longest wait, 2147483647ms"),
                  std::string::npos)
            << outcome.output;
        EXPECT_EQ(outcome.output.find("connect"), std::string::npos) << outcome.output;
    }
    // The longest wait itself passes the arguments: the connection is what fails then.
    const Outcome longest =
        advlock_cli({"run", "--db", kNowhere, "--key", "1:2", "--wait", "2147483647ms", "--", "true"});
    EXPECT_EQ(longest.code, 69) << longest.output;
    const Outcome word = advlock_cli({"run", "--db", kNowhere, "--key", "1:2", "--wait", "soon", "--", "true"});
    EXPECT_EQ(word.code, 64);
    EXPECT_NE(word.output.find("advlock run: --wait: duration 'soon'"), std::string::npos) << word.output;
}

TEST(CliInputs, ConfigWaitsAreBoundedToo) {
    TempDirectory dir("advlock-cli-inputs");
    const std::string config = dir.path() + "/advlock.toml";
    std::ofstream(config) << "database = \"" << kNowhere << "\"\n[run]\nwait = \"30d\"\n";
    const Outcome outcome = advlock_cli({"run", "--config", config, "--key", "1:2", "--", "true"});
    EXPECT_EQ(outcome.code, 78) << outcome.output;
    EXPECT_NE(outcome.output.find(config + ":3: 'run.wait' = '30d' is longer than the longest wait"), std::string::npos)
        << outcome.output;
}

TEST(CliInputs, ArgumentsAreEscapedInMessages) {
    const Outcome option = advlock_cli({"run", "--\x1b[2Jbogus", "--", "true"});
    EXPECT_EQ(option.code, 64);
    EXPECT_EQ(option.output.find('\x1b'), std::string::npos) << option.output;
    EXPECT_NE(option.output.find("unknown option --\\x1B[2Jbogus"), std::string::npos) << option.output;
    const Outcome command = advlock_cli({std::string(100000, 'x') + "\x1b"});
    EXPECT_EQ(command.code, 64);
    EXPECT_LT(command.output.size(), 300u);
    EXPECT_EQ(command.output.find('\x1b'), std::string::npos);
}

TEST(CliInputs, CheckEscapesNamesAndDescriptions) {
    TempDirectory dir("advlock-cli-inputs");
    const std::string registry = dir.path() + "/registry.toml";
    std::ofstream(registry) << "[locks.\"job\\u001b]0;owned\\u0007\"]\nkey = 1\n"
                               "description = \"tab\\there \\u009b31m red\"\n";
    const Outcome outcome = advlock_cli({"check", registry});
    EXPECT_EQ(outcome.code, 0) << outcome.output;
    EXPECT_EQ(outcome.output.find('\x1b'), std::string::npos) << outcome.output;
    EXPECT_EQ(outcome.output.find('\x07'), std::string::npos) << outcome.output;
    EXPECT_EQ(outcome.output.find("\xc2\x9b"), std::string::npos) << outcome.output;
    EXPECT_NE(outcome.output.find("job\\x1B]0;owned\\x07\t1\ttab\\x09here \\u{009B}31m red\n"), std::string::npos)
        << outcome.output;
}

// advlock hold of key on the local backend in a directory of its own, run
// through a link called program_name, so that the holder's process name
// (its comm, from the file it runs) is program_name. Released at the end.
class NamedLocalHolder {
public:
    NamedLocalHolder(const std::string &program_name, const std::string &key)
        : program_(dir_.path() + "/" + program_name), db_("local:" + dir_.path() + "/locks") {
        if (::symlink(kAdvlock.c_str(), program_.c_str()) != 0 || ::mkdir((dir_.path() + "/locks").c_str(), 0700) != 0) {
            ADD_FAILURE() << "cannot prepare " << dir_.path();
            return;
        }
        holder_ = std::make_unique<ChildProcess>(std::vector<std::string>{program_, "hold", "--db", db_, "--key", key},
                                                 /*merge_stderr=*/true);
        const std::string line = holder_->read_line();
        EXPECT_NE(line.find("advlock: holding " + key), std::string::npos) << line;
    }
    ~NamedLocalHolder() {
        if (!holder_) return;
        holder_->kill(SIGTERM);
        EXPECT_EQ(holder_->wait(), 0);
    }
    const std::string &db() const { return db_; }

private:
    TempDirectory dir_{"advlock-cli-inputs"};
    std::string program_, db_;
    std::unique_ptr<ChildProcess> holder_;
};

TEST(CliInputs, LocalHoldersProcessNamesAreEscaped) {
    const NamedLocalHolder holder("ad\x1b[31mv", "7:7");
    const Outcome status = advlock_cli({"status", "--db", holder.db()});
    EXPECT_EQ(status.code, 0) << status.output;
    EXPECT_EQ(status.output.find('\x1b'), std::string::npos) << status.output;
    EXPECT_NE(status.output.find("ad\\x1B[31mv"), std::string::npos) << status.output;
    const Outcome skipped = advlock_cli({"run", "--db", holder.db(), "--key", "7:7", "--", "true"});
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    EXPECT_EQ(skipped.output.find('\x1b'), std::string::npos) << skipped.output;
    EXPECT_NE(skipped.output.find("application ad\\x1B[31mv"), std::string::npos) << skipped.output;
}

TEST(CliInputs, StatusJsonStaysValidForNonUtf8ProcessNames) {
    const NamedLocalHolder holder("ad\xff\x1bv", "7:8");
    ChildProcess status({kAdvlock, "status", "--db", holder.db(), "--json"});
    const std::string output = status.read_all();
    EXPECT_EQ(status.wait(), 0) << output;
    // The local backend turns the byte that is not UTF-8 into U+FFFD; ESC is
    // JSON-escaped. Parsed strictly, so invalid UTF-8 would fail here.
    const nlohmann::json json = nlohmann::json::parse(output);
    EXPECT_EQ(json.at("version"), 1);
    EXPECT_TRUE(json.at("note").is_null());
    ASSERT_EQ(json.at("holders").size(), 1u) << output;
    EXPECT_EQ(json.at("holders")[0].at("key"), "7:8");
    EXPECT_EQ(json.at("holders")[0].at("application"), "ad\xEF\xBF\xBD\x1bv");
    EXPECT_NE(output.find("\\u001bv"), std::string::npos) << output;
}

TEST(CliInputs, AFifoAsConfigOrRegistryIsRefusedAtOnce) {
    TempDirectory dir("advlock-cli-inputs");
    const std::string fifo = dir.path() + "/fifo.toml";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const Outcome check = advlock_cli({"check", fifo});
    EXPECT_EQ(check.code, 78);
    EXPECT_NE(check.output.find("it is a FIFO (named pipe); give a regular file"), std::string::npos) << check.output;
    const Outcome config = advlock_cli({"status", "--config", fifo});
    EXPECT_EQ(config.code, 78);
    EXPECT_NE(config.output.find("config file"), std::string::npos) << config.output;
    const Outcome device = advlock_cli({"status", "--db", "local", "--registry", "/dev/zero"});
    EXPECT_EQ(device.code, 78);
    EXPECT_NE(device.output.find("it is a character device"), std::string::npos) << device.output;
}

TEST(CliInputs, APasswordOnAnInvalidConfigLineIsNotShown) {
    TempDirectory dir("advlock-cli-inputs");
    const std::string config = dir.path() + "/advlock.toml";
    std::ofstream(config) << "database = postgresql://batch:Q7zX9kVw@db1/sales\n";
    const Outcome outcome = advlock_cli({"status", "--config", config});
    EXPECT_EQ(outcome.code, 78) << outcome.output;
    EXPECT_NE(outcome.output.find(config + ":1: unexpected value"), std::string::npos) << outcome.output;
    for (std::size_t i = 0; i + 3 <= 8; ++i) {
        EXPECT_EQ(outcome.output.find(std::string("Q7zX9kVw").substr(i, 3)), std::string::npos) << outcome.output;
    }
}
