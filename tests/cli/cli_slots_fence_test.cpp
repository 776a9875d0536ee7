// advlock run --slots N and --fence, status --slots, key --slots and sql
// fence: the real binary against the test PostgreSQL. Waits are "until
// seen" (a line the job printed, a row in pg_locks), never timed.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"
#include "support/c_handles.hpp"
#include "support/child_process.hpp"
#include "support/temp_directory.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::test;

namespace {

// The line of text that contains needle ("" when none does).
std::string line_with(const std::string &text, const std::string &needle) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find(needle) != std::string::npos) return line;
    }
    return "";
}

// "slot 2: -123 pg_locks: ..." lines of advlock key --slots: slot -> key text.
std::map<unsigned, std::string> slot_keys(const std::string &key_output) {
    std::map<unsigned, std::string> keys;
    std::istringstream lines(key_output);
    for (std::string line; std::getline(lines, line);) {
        unsigned slot = 0;
        char key[64] = {};
        if (std::sscanf(line.c_str(), "slot %u: %63s pg_locks:", &slot, key) == 2) keys[slot] = key;
    }
    return keys;
}

// A database of its own, empty (no fence table yet): its URL.
std::string fresh_database(const std::string &name) {
    Psql admin;
    admin.query("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    admin.query("CREATE DATABASE " + name);
    std::string url = postgres_url();
    return url.replace(url.rfind('/') + 1, std::string::npos, name);
}

// `advlock run --slots 3` whose job prints "slot S of N" and runs until the
// file `finish` exists.
std::unique_ptr<ChildProcess> slot_holder(const std::vector<std::string> &extra, const std::string &application,
                                          const std::string &finish) {
    std::vector<std::string> args = {kAdvlock, "run", "--db", postgres_url(), "--slots", "3", "--name", job_name(),
                                     "--application-name", application};
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--", "sh", "-c",
                             "echo \"slot $ADVLOCK_SLOT of $ADVLOCK_SLOTS\"; while [ ! -e \"$0\" ]; do sleep 0.05; done",
                             finish});
    return std::make_unique<ChildProcess>(args, /*merge_stderr=*/true);
}

unsigned slot_of(const std::string &line) {
    unsigned slot = 0, of = 0;
    EXPECT_EQ(std::sscanf(line.c_str(), "slot %u of %u", &slot, &of), 2) << line;
    EXPECT_EQ(of, 3u) << line;
    return slot;
}

}  // namespace

TEST(CliSlots, ThreeRunAtOnceAFourthSkipsNamingEachHolderOrWaitsForAFreeSlot) {
    TempDirectory dir("advlock-cli-slots");
    std::map<unsigned, std::string> application_of;  // slot -> its holder's application name
    std::map<unsigned, std::unique_ptr<ChildProcess>> holders;
    for (int i = 1; i <= 3; ++i) {
        // Short: the server keeps 63 bytes of an application name. Used by this test only.
        const std::string application = "cli-slots-" + std::to_string(i);
        auto holder = slot_holder({}, application, dir.path() + "/finish-" + application);
        const unsigned slot = slot_of(holder->read_line());  // printed once it holds its slot
        EXPECT_TRUE(application_of.emplace(slot, application).second) << "slot " << slot << " given twice";
        holders[slot] = std::move(holder);
    }
    EXPECT_EQ(application_of.size(), 3u);
    EXPECT_EQ(application_of.begin()->first, 1u);
    EXPECT_EQ(application_of.rbegin()->first, 3u);

    // All busy: exit 3 as for a plain lock, the holder of each slot named.
    const Outcome skipped = advlock_cli(
        {"run", "--db", postgres_url(), "--slots", "3", "--name", job_name(), "--", "touch", dir.path() + "/ran"});
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    EXPECT_NE(skipped.output.find("every slot of " + job_name() + " is held (3 slots); not running touch (exit 3)"),
              std::string::npos)
        << skipped.output;
    for (const auto &[slot, application] : application_of) {
        const std::string line = line_with(skipped.output, job_name() + " slot " + std::to_string(slot) + " is held by pid");
        EXPECT_NE(line.find("application " + application + ","), std::string::npos) << skipped.output;
    }
    EXPECT_FALSE(std::ifstream(dir.path() + "/ran")) << "the fourth run must not run its command";

    // status --slots: each slot with its key and holder, as JSON and as a table.
    const Outcome keys = advlock_cli({"key", job_name(), "--slots", "3"});
    const std::map<unsigned, std::string> key_of = slot_keys(keys.output);
    ASSERT_EQ(key_of.size(), 3u) << keys.output;
    const nlohmann::json status = status_json({"--db", postgres_url(), "--name", job_name(), "--slots", "3"});
    EXPECT_EQ(status.at("version"), 1);
    ASSERT_EQ(status.at("slots").size(), 3u) << status.dump();
    EXPECT_EQ(status.at("holders").size(), 3u) << "every slot's holder is in holders too: " << status.dump();
    for (const nlohmann::json &slot : status.at("slots")) {
        const unsigned number = slot.at("slot");
        EXPECT_EQ(slot.at("key"), key_of.at(number));
        ASSERT_EQ(slot.at("holders").size(), 1u) << slot.dump();
        EXPECT_EQ(slot.at("holders")[0].at("application"), application_of.at(number));
        EXPECT_EQ(slot.at("holders")[0].at("granted"), true);
    }
    const Outcome table = advlock_cli({"status", "--db", postgres_url(), "--name", job_name(), "--slots", "3"});
    EXPECT_EQ(table.code, 0) << table.output;
    for (const auto &[slot, application] : application_of) {
        EXPECT_NE(line_with(table.output, key_of.at(slot)).find(application), std::string::npos) << table.output;
    }

    // --wait: the fourth waits on the server, and takes the slot that frees.
    const std::string waiter = "cli-slots-4";
    auto fourth = slot_holder({"--wait", "1h"}, waiter, dir.path() + "/finish-" + waiter);
    Psql psql;
    while (psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                          " AND NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE application_name = $1)",
                      {waiter}) == "0") {
    }
    std::ofstream(dir.path() + "/finish-" + application_of.at(2));
    EXPECT_EQ(holders.at(2)->wait(), 0);
    EXPECT_EQ(slot_of(fourth->read_line()), 2u);
    for (const auto &[slot, application] : application_of) std::ofstream(dir.path() + "/finish-" + application);
    std::ofstream(dir.path() + "/finish-" + waiter);
    EXPECT_EQ(fourth->wait(), 0);
    for (const auto &[slot, holder] : holders) EXPECT_EQ(holder->wait(), 0) << "slot " << slot;
}

TEST(CliSlots, ALostSlotStopsTheJobAndExits75) {
    ChildProcess run({kAdvlock, "run", "--db", postgres_url(), "--slots", "2", "--name", job_name(),
                      "--application-name", "cli-slots-lost", "--", "sh", "-c", "echo ready; exec sleep 3600"},
                     true);
    EXPECT_EQ(run.read_line(), "ready");
    Psql psql;
    psql.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cli-slots-lost'");
    const std::string output = run.read_all();
    EXPECT_EQ(run.wait(), 75) << output;
    EXPECT_NE(output.find("the lock on " + job_name() + " slot 1 was lost"), std::string::npos) << output;
}

TEST(CliSlots, KeyPrintsEachSlotsKeyAsPsqlDerivesIt) {
    const Outcome key = advlock_cli({"key", "daily_sales", "--slots", "3"});
    EXPECT_EQ(key.code, 0) << key.output;
    EXPECT_EQ(key.output.rfind("-671140887899735099\n", 0), 0u) << "the name's own key first: " << key.output;
    const std::map<unsigned, std::string> keys = slot_keys(key.output);
    ASSERT_EQ(keys.size(), 3u) << key.output;
    // The frozen rule of advlock.h, in psql: the first 8 bytes of
    // SHA-256("advlock-slot:" + key text + "/" + slot), big-endian, signed.
    Psql psql;
    for (const auto &[slot, text] : keys) {
        EXPECT_EQ(psql.value("SELECT ('x' || left(encode(sha256(convert_to('advlock-slot:' || $1 || '/' || $2, "
                             "'UTF8')), 'hex'), 16))::bit(64)::bigint",
                             {"-671140887899735099", std::to_string(slot)}),
                  text)
            << "slot " << slot;
    }
    const Outcome pair = advlock_cli({"key", "--key", "100:1", "--slots", "2"});
    EXPECT_EQ(pair.code, 0) << pair.output;
    EXPECT_EQ(pair.output.rfind("100:1\npg_locks: classid=100 objid=1 objsubid=2\nslot 1: ", 0), 0u) << pair.output;
    EXPECT_EQ(slot_keys(pair.output).size(), 2u) << pair.output;
}

TEST(CliFence, TokensGrowAndAJobsCheckFencesOutAnOlderToken) {
    const std::string url = fresh_database("advlock_cli_fence");
    const std::vector<std::string> run = {"run", "--db", url, "--fence", "--name", job_name(), "--"};
    const auto fenced_run = [&](std::vector<std::string> job) {
        std::vector<std::string> args = run;
        args.insert(args.end(), job.begin(), job.end());
        return advlock_cli(args);
    };
    const std::vector<std::string> print = {"sh", "-c", "echo \"$ADVLOCK_FENCE_KEY $ADVLOCK_FENCE_TOKEN\""};

    // No fence table yet: a thing to set up (78), and the message says how.
    const Outcome missing = fenced_run(print);
    EXPECT_EQ(missing.code, 78) << missing.output;
    EXPECT_NE(missing.output.find("advlock sql fence | psql"), std::string::npos) << missing.output;

    // `advlock sql fence | psql URL`, as the manual says, creates it.
    ChildProcess create({"sh", "-c", "\"$0\" sql fence | psql -X -q -v ON_ERROR_STOP=1 \"$1\"", kAdvlock, url}, true);
    const std::string created = create.read_all();
    ASSERT_EQ(create.wait(), 0) << created;
    EXPECT_EQ(Psql(url).value("SELECT to_regclass('public.advlock_fence') IS NOT NULL"), "t");

    const Outcome first = fenced_run(print), second = fenced_run(print);
    ASSERT_EQ(first.code, 0) << first.output;
    ASSERT_EQ(second.code, 0) << second.output;
    std::string key, again;
    long long token1 = 0, token2 = 0;
    std::istringstream(first.output) >> key >> token1;
    std::istringstream(second.output) >> again >> token2;
    const std::string name_key = advlock_cli({"key", job_name()}).output;
    EXPECT_EQ(key, name_key.substr(0, name_key.find('\n'))) << "ADVLOCK_FENCE_KEY is the key held: " << first.output;
    EXPECT_EQ(again, key);
    EXPECT_GT(token2, token1) << "each grant issues a greater token";

    // In the job's own transaction: its current token passes (also as the
    // statement ADVLOCK_FENCE_CHECK_SQL), the older one fails with 55T01.
    const std::string psql = "psql -X -q -At -v ON_ERROR_STOP=1 -v VERBOSITY=verbose \"$0\"";
    const Outcome checked = fenced_run(
        {"sh", "-c",
         psql + " -c \"BEGIN; SELECT public.advlock_fence_check('$ADVLOCK_FENCE_KEY', $ADVLOCK_FENCE_TOKEN); COMMIT\" "
                "&& echo current-passed; " +
             psql + " -c \"BEGIN; $ADVLOCK_FENCE_CHECK_SQL; COMMIT\" && echo sql-passed; " + psql +
             " -c \"BEGIN; SELECT public.advlock_fence_check('$ADVLOCK_FENCE_KEY', $1); COMMIT\" && echo old-passed; "
             "exit 0",
         url, std::to_string(token1)});
    EXPECT_EQ(checked.code, 0) << checked.output;
    EXPECT_NE(checked.output.find("current-passed"), std::string::npos) << checked.output;
    EXPECT_NE(checked.output.find("sql-passed"), std::string::npos) << checked.output;
    EXPECT_EQ(checked.output.find("old-passed"), std::string::npos) << checked.output;
    EXPECT_NE(checked.output.find("55T01"), std::string::npos) << checked.output;

    // With --slots the token is the slot's, and so is the key to check.
    const Outcome slot = advlock_cli({"run", "--db", url, "--fence", "--slots", "2", "--name", job_name(), "--", "sh",
                                      "-c", "echo \"$ADVLOCK_SLOT $ADVLOCK_FENCE_KEY $ADVLOCK_FENCE_TOKEN\""});
    ASSERT_EQ(slot.code, 0) << slot.output;
    unsigned number = 0;
    std::string slot_key;
    std::istringstream(slot.output) >> number >> slot_key;
    EXPECT_EQ(slot_key, slot_keys(advlock_cli({"key", job_name(), "--slots", "2"}).output)[number]) << slot.output;
    Psql(postgres_url()).query("DROP DATABASE advlock_cli_fence WITH (FORCE)");
}

TEST(CliFence, OffPostgresqlItExits78SayingWhy) {
    TempDirectory dir("advlock-cli-fence-local");
    const Outcome local =
        advlock_cli({"run", "--db", "local:" + dir.path(), "--fence", "--name", job_name(), "--", "true"});
    EXPECT_EQ(local.code, 78) << local.output;
    EXPECT_NE(local.output.find("PostgreSQL"), std::string::npos) << local.output;
}

TEST(CliSlots, SlotsRunOnTheLocalBackendToo) {
    TempDirectory dir("advlock-cli-slots-local");
    const std::string db = "local:" + dir.path();
    const std::string finish = dir.path() + "/finish";
    const auto start = [&] {
        return std::make_unique<ChildProcess>(
            std::vector<std::string>{kAdvlock, "run", "--db", db, "--slots", "2", "--name", job_name(), "--", "sh", "-c",
                                     "echo $ADVLOCK_SLOT; while [ ! -e \"$0\" ]; do sleep 0.05; done", finish},
            true);
    };
    auto first = start(), second = start();
    std::set<std::string> slots = {first->read_line(), second->read_line()};
    EXPECT_EQ(slots, (std::set<std::string>{"1", "2"}));
    const Outcome third = advlock_cli({"run", "--db", db, "--slots", "2", "--name", job_name(), "--", "true"});
    EXPECT_EQ(third.code, 3) << third.output;
    EXPECT_NE(third.output.find(job_name() + " slot 2 is held by pid"), std::string::npos) << third.output;
    std::ofstream{finish};
    EXPECT_EQ(first->wait(), 0);
    EXPECT_EQ(second->wait(), 0);
}

TEST(CliSlots, BadSlotsAndWhatTheyCannotGoWithExit64) {
    const std::string db = postgres_url();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"run", "--db", db, "--name", "x", "--slots", "0", "--", "true"}, "--slots 0: give a number of slots from 1 to 64"},
        {{"run", "--db", db, "--name", "x", "--slots", "65", "--", "true"}, "--slots 65: give a number of slots from 1 to 64"},
        {{"run", "--db", db, "--name", "x", "--slots", "abc", "--", "true"}, "--slots abc: give a number"},
        {{"run", "--db", db, "--name", "x", "--slots", "-3", "--", "true"}, "--slots -3: give a number"},
        {{"run", "--db", db, "--name", "x", "--slots", "3x", "--", "true"}, "--slots 3x: give a number"},
        {{"run", "--db", db, "--name", "x", "--slots", "", "--", "true"}, "give a number of slots"},
        {{"run", "--db", db, "--name", "x", "--slots", "99999999999999999999", "--", "true"}, "give a number"},
        {{"run", "--db", db, "--name", "x", "--slots", "3", "--shared", "--", "true"}, "--slots takes one slot exclusively"},
        {{"run", "--db", db, "--name", "x", "--fence", "--shared", "--", "true"}, "--fence needs the lock exclusively"},
        {{"run", "--db", db, "--name", "x", "--slots", "3", "--once-per", "day", "--", "true"}, "not with --slots"},
        {{"status", "--db", db, "--slots", "3"}, "give its --name NAME or --key KEY too"},
        {{"key", "x", "--slots", "65"}, "from 1 to 64"},
        {{"key", "x", "--slots", "3", "--sql"}, "not with --slots"},
        {{"key", "x", "--key", "1:2"}, "not both"},
        {{"sql", "fence", "--role", "r"}, "takes no --role"},
    };
    for (const auto &[args, message] : cases) {
        const Outcome outcome = advlock_cli(args);
        EXPECT_EQ(outcome.code, 64) << args[0] << " " << args.back() << ": " << outcome.output;
        EXPECT_NE(outcome.output.find(message), std::string::npos) << outcome.output;
    }
}
