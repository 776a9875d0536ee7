// advlock run with --name more than once: a set of locks, all of them or
// none, against the test PostgreSQL and the local backend. Waits are "until
// seen" (a line the job printed, a row in pg_locks), never timed.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "support/c_handles.hpp"
#include "support/child_process.hpp"
#include "support/temp_directory.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::test;

namespace {

std::string name(const std::string &suffix) { return job_name() + "." + suffix; }

advlock_key key_of(const std::string &lock_name) {
    advlock_key key{};
    advlock_key_from_name(&key, lock_name.c_str(), ADVLOCK_NUL_TERMINATED);
    return key;
}

// `advlock run` of the set (db, names) whose job prints "holding" and runs
// until the file `finish` exists.
std::unique_ptr<ChildProcess> set_holder(const std::string &db, const std::vector<std::string> &names,
                                         const std::vector<std::string> &extra, const std::string &finish) {
    std::vector<std::string> args = {kAdvlock, "run", "--db", db};
    for (const std::string &n : names) args.insert(args.end(), {"--name", n});
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--", "sh", "-c", "echo holding; while [ ! -e \"$0\" ]; do sleep 0.05; done", finish});
    return std::make_unique<ChildProcess>(args, /*merge_stderr=*/true);
}

}  // namespace

TEST(CliLockSets, RunHoldsEverySetLockAndAnOverlappingSetSkipsOrWaits) {
    TempDirectory dir("advlock-cli-sets");
    const std::string a = name("a"), b = name("b"), c = name("c");
    auto holder = set_holder(postgres_url(), {a, b}, {"--application-name", "cli-sets-holder"}, dir.path() + "/done");
    ASSERT_EQ(holder->read_line(), "holding");
    Psql psql;
    EXPECT_EQ(psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                             " AND granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE application_name = $1)",
                         {"cli-sets-holder"}),
              "2");

    // {b, c}: b is taken, so neither is, and the command does not run.
    const Outcome skipped =
        advlock_cli({"run", "--db", postgres_url(), "--name", b, "--name", c, "--", "touch", dir.path() + "/ran"});
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    EXPECT_NE(skipped.output.find("not every lock of {" + b + ", " + c + "} is free: " + b + " is held by pid"),
              std::string::npos)
        << skipped.output;
    EXPECT_NE(skipped.output.find("application cli-sets-holder"), std::string::npos) << skipped.output;
    EXPECT_FALSE(std::ifstream(dir.path() + "/ran"));
    const Session other = open_session();
    EXPECT_NE(take(other, key_of(c)), nullptr) << "the refused set must leave c free";

    // {c, a} with --wait: it waits on the server, and runs once the holder ends.
    auto waiter = set_holder(postgres_url(), {c, a}, {"--wait", "1h", "--application-name", "cli-sets-waiter"},
                             dir.path() + "/done");
    while (psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                          " AND NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE application_name = $1)",
                      {"cli-sets-waiter"}) == "0") {
    }
    std::ofstream(dir.path() + "/done");
    EXPECT_EQ(holder->wait(), 0);
    EXPECT_EQ(waiter->read_line(), "holding");
    EXPECT_EQ(waiter->wait(), 0);
}

// kill -9 of a set's holder: nothing of advlock runs to release anything,
// and the server frees the whole set with the connection; the next run of
// the same set waits for it and runs.
TEST(CliLockSets, KillingTheHolderFreesTheWholeSet) {
    TempDirectory dir("advlock-cli-sets-kill");
    const std::string a = name("a"), b = name("b");
    auto holder = set_holder(postgres_url(), {a, b}, {}, dir.path() + "/done");
    ASSERT_EQ(holder->read_line(), "holding");
    holder->kill(SIGKILL);
    EXPECT_EQ(holder->wait(), 128 + SIGKILL);
    const Outcome next =
        advlock_cli({"run", "--db", postgres_url(), "--name", b, "--name", a, "--wait", "1m", "--", "true"});
    EXPECT_EQ(next.code, 0) << next.output;
    std::ofstream(dir.path() + "/done");  // the killed holder's job ends too, if still there
}

TEST(CliLockSets, LocalBackendTakesTheSetToo) {
    TempDirectory dir("advlock-cli-sets-local");
    const std::string db = "local:" + dir.path() + "/locks";
    auto holder = set_holder(db, {name("x")}, {}, dir.path() + "/done");
    ASSERT_EQ(holder->read_line(), "holding");
    const Outcome skipped = advlock_cli({"run", "--db", db, "--name", name("y"), "--name", name("x"), "--", "true"});
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    // y was let go again: a set of y alone runs.
    const Outcome alone = advlock_cli({"run", "--db", db, "--name", name("y"), "--name", name("z"), "--", "true"});
    EXPECT_EQ(alone.code, 0) << alone.output;
    std::ofstream(dir.path() + "/done");
    EXPECT_EQ(holder->wait(), 0);
}

TEST(CliLockSets, OptionsForOneLockAreRefusedWithASet) {
    for (const std::vector<std::string> &extra :
         {std::vector<std::string>{"--slots", "2"}, {"--fence"}, {"--once-per", "day"}}) {
        std::vector<std::string> args = {"run", "--db", "local", "--name", name("p"), "--name", name("q")};
        args.insert(args.end(), extra.begin(), extra.end());
        args.insert(args.end(), {"--", "true"});
        const Outcome refused = advlock_cli(args);
        EXPECT_EQ(refused.code, 64) << refused.output;
        EXPECT_NE(refused.output.find(extra[0] + " goes with one lock"), std::string::npos) << refused.output;
    }
    // The other subcommands take one lock.
    const Outcome hold = advlock_cli({"hold", "--db", "local", "--name", name("p"), "--name", name("q")});
    EXPECT_EQ(hold.code, 64) << hold.output;
    EXPECT_NE(hold.output.find("--name is given twice"), std::string::npos) << hold.output;
}
