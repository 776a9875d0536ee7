// The real advlock binary against a real server: every exit code, every
// subcommand, signals, a lock lost while the command runs, bad arguments.
// Waits are "until seen", never timed.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <nlohmann/json.hpp>

#include "advlock.h"
#include "cli_runner.hpp"
#include "support/c_handles.hpp"
#include "support/child_process.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

// The server pid of the session `advlock run` opened for command (its
// application name is "advlock run <command>"), once it holds its lock.
std::string run_session_pid(Psql &psql, const std::string &application) {
    // Matched by this test's own lock too: tests running in parallel start
    // commands of the same name ("advlock run sh").
    advlock_key key;
    EXPECT_EQ(advlock_key_from_name(&key, job_name().c_str(), ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    advlock_pg_locks_key pg;
    EXPECT_EQ(advlock_key_to_pg_locks(&pg, &key), ADVLOCK_OK);
    for (;;) {
        const auto rows = psql.query(std::string("SELECT a.pid FROM pg_stat_activity a WHERE a.application_name = $1 "
                                                 "AND EXISTS (SELECT 1 FROM ") +
                                         kJobAdvisoryLocks +
                                         " AND granted AND pid = a.pid AND classid = $2::bigint AND objid = $3::bigint"
                                         " AND objsubid = $4::int)",
                                     {application, std::to_string(pg.classid), std::to_string(pg.objid),
                                      std::to_string(pg.objsubid)});
        if (!rows.empty()) return rows[0][0];
    }
}

}  // namespace

TEST(CliRun, ExitsWithTheCommandsOwnCode) {
    const Outcome ok = advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "true"});
    EXPECT_EQ(ok.code, 0) << ok.output;
    const Outcome seven = advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "sh", "-c", "exit 7"});
    EXPECT_EQ(seven.code, 7) << seven.output;
    const Outcome killed =
        advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "sh", "-c", "kill -TERM $$"});
    EXPECT_EQ(killed.code, 128 + SIGTERM) << killed.output;
}

TEST(CliRun, HeldElsewhereExits3AndNamesTheHolder) {
    Session holder = open_session("cli-test-holder");
    advlock_key key;
    advlock_key_from_name(&key, job_name().c_str(), ADVLOCK_NUL_TERMINATED);
    Lock held = take(holder, key);
    const Outcome skipped = advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "touch", "/tmp/x"});
    EXPECT_EQ(skipped.code, 3);
    EXPECT_NE(skipped.output.find("is held by pid " + std::to_string(backend_pid(holder))), std::string::npos)
        << skipped.output;
    EXPECT_NE(skipped.output.find("application cli-test-holder"), std::string::npos) << skipped.output;
    const Outcome zero = advlock_cli(
        {"run", "--db", postgres_url(), "--name", job_name(), "--conflict-exit-code", "0", "--", "true"});
    EXPECT_EQ(zero.code, 0) << zero.output;
    // A shared run is excluded by an exclusive holder too.
    EXPECT_EQ(advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--shared", "--", "true"}).code, 3);
}

TEST(CliRun, WaitRunsOnceTheHolderReleases) {
    Session holder = open_session();
    advlock_key key;
    advlock_key_from_name(&key, job_name().c_str(), ADVLOCK_NUL_TERMINATED);
    Lock held = take(holder, key);
    ChildProcess waiting({kAdvlock, "run", "--db", postgres_url(), "--name", job_name(), "--wait", "1h",
                          "--application-name", "cli-waiter", "--", "echo", "ran"},
                         true);
    Psql psql;
    while (psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks +
                      " AND NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE application_name = "
                      "'cli-waiter')") == "0") {
    }
    held.reset();
    EXPECT_EQ(waiting.read_all(), "ran\n");
    EXPECT_EQ(waiting.wait(), 0);
}

TEST(CliRun, LostLockStopsTheCommandAndExits75) {
    ChildProcess run({kAdvlock, "run", "--db", postgres_url(), "--name", job_name(), "--", "sleep", "3600"}, true);
    Psql psql;
    const std::string pid = run_session_pid(psql, "advlock run sleep");
    psql.query("SELECT pg_terminate_backend($1::int)", {pid});
    const std::string output = run.read_all();
    EXPECT_EQ(run.wait(), 75) << output;
    EXPECT_NE(output.find("was lost"), std::string::npos) << output;
    EXPECT_NE(output.find("administrator command"), std::string::npos) << output;
}

TEST(CliRun, CommandIgnoringSigtermIsKilledAfterTheGrace) {
    ChildProcess run({kAdvlock, "run", "--db", postgres_url(), "--name", job_name(), "--kill-grace", "200ms", "--",
                      "sh", "-c", "trap '' TERM; while :; do sleep 1; done"},
                     true);
    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {run_session_pid(psql, "advlock run sh")});
    const std::string output = run.read_all();
    EXPECT_EQ(run.wait(), 75) << output;
    EXPECT_NE(output.find("SIGKILL after 200ms"), std::string::npos) << output;
}

TEST(CliRun, SignalsSentToAdvlockReachTheCommand) {
    ChildProcess run({kAdvlock, "run", "--db", postgres_url(), "--name", job_name(), "--", "sh", "-c",
                      "trap 'echo got USR1; exit 42' USR1; echo ready; while :; do sleep 0.05; done"},
                     true);
    EXPECT_EQ(run.read_line(), "ready");
    run.kill(SIGUSR1);
    EXPECT_EQ(run.read_line(), "got USR1");
    EXPECT_EQ(run.wait(), 42);
}

TEST(CliRun, MissingCommandExits127) {
    const Outcome missing =
        advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "/nonexistent/job.sh"});
    EXPECT_EQ(missing.code, 127);
    EXPECT_NE(missing.output.find("cannot run /nonexistent/job.sh"), std::string::npos) << missing.output;
}

TEST(CliRun, UnreachableServerExits69WithoutThePassword) {
    const Outcome down = advlock_cli(
        {"run", "--db", "postgresql://app:Sup3rS3cret@127.0.0.1:1/db", "--name", job_name(), "--", "true"});
    EXPECT_EQ(down.code, 69);
    EXPECT_NE(down.output.find("cannot connect"), std::string::npos) << down.output;
    EXPECT_EQ(down.output.find("Sup3rS3cret"), std::string::npos) << down.output;
}

TEST(CliRun, AmbiguousPasswordsInUrlsExit64WithoutAPieceOfThem) {
    // Issue 17: each of these once printed a piece of the password.
    for (const char *db : {"postgresql://u:TopSe/cret@127.0.0.1/db", "postgresql://u:TopSe@cret@127.0.0.1/db",
                           "mysql://u:TopSe/cret@127.0.0.1/db"}) {
        const Outcome refused = advlock_cli({"run", "--db", db, "--name", job_name(), "--", "true"});
        EXPECT_EQ(refused.code, 64) << db << ": " << refused.output;
        EXPECT_NE(refused.output.find("Percent-encode"), std::string::npos) << refused.output;
        EXPECT_EQ(refused.output.find("TopSe"), std::string::npos) << refused.output;
        EXPECT_EQ(refused.output.find("cret"), std::string::npos) << refused.output;
    }
}

TEST(CliRun, BadArgumentsExit64WithAClearMessage) {
    const std::string db = postgres_url();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"run", "--name", "x", "--", "true"}, "no database given"},
        {{"run", "--db", "local:relative", "--name", "x", "--", "true"}, "local:/absolute/dir"},
        {{"run", "--db", db, "--", "true"}, "which lock?"},
        // (run takes both as a set of locks; the one-lock subcommands refuse it)
        {{"hold", "--db", db, "--name", "x", "--key", "1:2"}, "not both"},
        {{"run", "--db", db, "--key", "100:", "--", "true"}, "second number of the pair is missing"},
        {{"run", "--db", db, "--name", "x"}, "no command to run"},
        {{"run", "--db", db, "--name", "x", "--wait", "soon", "--", "true"}, "--wait: duration 'soon'"},
        {{"run", "--db", db, "--name", "x", "--conflict-exit-code", "300", "--", "true"}, "from 0 to 255"},
        {{"run", "--db", db, "--name", "x", "--bogus", "--", "true"}, "unknown option --bogus"},
        {{"run", "--db", db, "--db", db, "--name", "x", "--", "true"}, "given twice"},
        {{"frobnicate"}, "unknown command frobnicate"},
        {{"key"}, "exactly one lock name"},
        {{"key", ""}, "lock name is empty"},
        {{"sql", "drop"}, "give revoke, grant, ledger or fence"},
        {{"sql", "grant"}, "which role?"},
    };
    for (const auto &[args, message] : cases) {
        const Outcome outcome = advlock_cli(args);
        EXPECT_EQ(outcome.code, 64) << args[0] << ": " << outcome.output;
        EXPECT_NE(outcome.output.find(message), std::string::npos) << outcome.output;
    }
    EXPECT_EQ(advlock_cli({}).code, 64);
}

TEST(CliRun, RegistryNamesKeysAndItsErrors) {
    const std::string good = write_file("cli_registry.toml", "[locks.nightly]\nkey = [4100, 1]\n");
    Session holder = open_session();
    Lock held = take(holder, advlock_key_pair(4100, 1));
    const Outcome skipped =
        advlock_cli({"run", "--db", postgres_url(), "--registry", good, "--name", "nightly", "--", "true"});
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    const Outcome unknown =
        advlock_cli({"run", "--db", postgres_url(), "--registry", good, "--name", "nightlyy", "--", "true"});
    EXPECT_EQ(unknown.code, 64);
    EXPECT_NE(unknown.output.find("did you mean 'nightly'?"), std::string::npos) << unknown.output;
    const std::string bad = write_file("cli_registry_bad.toml", "[locks.a]\nkey = [1]\n");
    const Outcome invalid = advlock_cli({"run", "--db", postgres_url(), "--registry", bad, "--name", "a", "--", "true"});
    EXPECT_EQ(invalid.code, 78);
    EXPECT_NE(invalid.output.find("cli_registry_bad.toml:2:"), std::string::npos) << invalid.output;
}

TEST(CliHold, HoldsUntilTheTimeIsUpAndMakesRunsSkip) {
    ChildProcess hold({kAdvlock, "hold", "--db", postgres_url(), "--name", job_name(), "--for", "1h"}, true);
    EXPECT_NE(hold.read_line().find("holding " + job_name()), std::string::npos);
    EXPECT_EQ(advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "true"}).code, 3);
    hold.kill(SIGTERM);
    EXPECT_EQ(hold.wait(), 0);
    EXPECT_EQ(advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", "true"}).code, 0);
    const Outcome brief = advlock_cli({"hold", "--db", postgres_url(), "--name", job_name(), "--for", "10ms"});
    EXPECT_EQ(brief.code, 0) << brief.output;
}

TEST(CliHold, LostHoldExits75) {
    ChildProcess hold({kAdvlock, "hold", "--db", postgres_url(), "--name", job_name()}, true);
    EXPECT_NE(hold.read_line().find("holding"), std::string::npos);
    Psql psql;
    psql.query("SELECT pg_terminate_backend($1::int)", {run_session_pid(psql, "advlock hold")});
    EXPECT_EQ(hold.wait(), 75);
}

TEST(CliStatus, ShowsHoldersWithRegistryNamesAsTableAndJson) {
    const std::string registry = write_file("cli_status.toml", "[locks.status_job]\nkey = [4200, 7]\n");
    Session holder = open_session("cli-status-holder");
    Lock held = take(holder, advlock_key_pair(4200, 7));
    const Outcome table = advlock_cli({"status", "--db", postgres_url(), "--registry", registry, "--name", "status_job"});
    EXPECT_EQ(table.code, 0) << table.output;
    EXPECT_NE(table.output.find("status_job"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("4200:7"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("cli-status-holder"), std::string::npos) << table.output;
    EXPECT_NE(table.output.find("holds"), std::string::npos) << table.output;
    const nlohmann::json json = status_json({"--db", postgres_url(), "--registry", registry});
    EXPECT_EQ(json.at("version"), 1);
    EXPECT_TRUE(json.at("note").is_null()) << "PostgreSQL shows every holder";
    const nlohmann::json row = holder_of(json, "4200:7");
    EXPECT_EQ(row.at("name"), "status_job");
    EXPECT_EQ(row.at("mode"), "exclusive");
    EXPECT_EQ(row.at("granted"), true);
    EXPECT_EQ(row.at("pid"), backend_pid(holder));
    EXPECT_EQ(row.at("application"), "cli-status-holder");
    EXPECT_TRUE(row.at("user").is_string());
    EXPECT_TRUE(row.at("connected_since").is_string());
    EXPECT_TRUE(row.at("waiting_since").is_null());
    EXPECT_EQ(row.at("details_hidden"), false);
    EXPECT_EQ(row.at("pg_locks"), nlohmann::json({{"classid", 4200}, {"objid", 7}, {"objsubid", 2}}));
    for (const nlohmann::json &other : json.at("holders")) {
        EXPECT_NE(other.at("pg_locks").at("classid"), 1633971307) << "advlock's sentinel locks are not a job's";
    }
}

TEST(CliStatus, JsonStaysValidForARoleNameThatIsNotUtf8) {
    // PostgreSQL turns non-ASCII bytes of application_name into '?', but in a
    // SQL_ASCII database a role name may be any bytes, and pg_stat_activity
    // shows them as they are: 0xFF reaches status, which must still print
    // valid JSON (0xFF as \xFF, as on the terminal; ESC JSON-escaped).
    const std::string role = "cli\xff\x1bst", database = "cli_status_raw_bytes";
    const std::string admin_url = postgres_url();
    const std::string url = admin_url.substr(0, admin_url.rfind('/')) + "/" + database;
    Psql admin;
    admin.query("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
    admin.query("CREATE DATABASE " + database + " ENCODING 'SQL_ASCII' TEMPLATE template0");
    {
        Psql raw(url);  // client encoding SQL_ASCII: the role name is sent as bytes
        raw.query("DROP ROLE IF EXISTS \"" + role + "\"");
        raw.query("CREATE ROLE \"" + role + "\" LOGIN PASSWORD 'raw-bytes'");
        {
            Psql holder(with_credentials(url, "cli%FF%1Bst", "raw-bytes"));
            holder.query("SELECT pg_advisory_lock(4200, 19)");
            const nlohmann::json row = holder_of(status_json({"--db", url}), "4200:19");
            EXPECT_EQ(row.at("user"), "cli\\xFF\x1bst");
            const Outcome table = advlock_cli({"status", "--db", url});
            EXPECT_NE(table.output.find("cli\\xFF\\x1Bst"), std::string::npos) << table.output;
        }
        raw.query("DROP ROLE \"" + role + "\"");  // its name is sent as bytes here only
    }
    admin.query("DROP DATABASE " + database + " WITH (FORCE)");
}

TEST(CliKeySqlCheck, PrintWhatTheyPromise) {
    const Outcome key = advlock_cli({"key", "daily_sales"});
    EXPECT_EQ(key.code, 0);
    EXPECT_EQ(key.output.rfind("-671140887899735099\n", 0), 0u) << key.output;
    EXPECT_NE(key.output.find("classid=4138705131 objid=377420741 objsubid=1"), std::string::npos);
    const Outcome sql = advlock_cli({"key", "it's", "--sql"});
    Psql psql;
    advlock_key expected;
    advlock_key_from_name(&expected, "it's", ADVLOCK_NUL_TERMINATED);
    EXPECT_EQ(psql.value(sql.output), std::to_string(expected.bigint)) << sql.output;
    EXPECT_EQ(advlock_cli({"key", "daily_sales", "--scheme", "with_advisory_lock"}).output.rfind("1805652368:0\n", 0), 0u);

    const Outcome revoke = advlock_cli({"sql", "revoke", "--role", "batch \"role\""});
    EXPECT_EQ(revoke.code, 0);
    EXPECT_NE(revoke.output.find("REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_xact_lock_shared(integer, "
                                 "integer) FROM \"batch \"\"role\"\"\";"),
              std::string::npos)
        << revoke.output;
    // Every statement is valid SQL for the server, and covers all 21 signatures.
    const Outcome grant = advlock_cli({"sql", "grant", "--role", "PUBLIC"});
    EXPECT_NO_THROW(psql.script(grant.output));
    EXPECT_EQ(std::count(grant.output.begin(), grant.output.end(), ';'), 21);

    const std::string registry = write_file("cli_check.toml", "[locks.a]\nkey = 5\ndescription = \"five\"\n");
    const Outcome check = advlock_cli({"check", registry});
    EXPECT_EQ(check.code, 0);
    EXPECT_NE(check.output.find("a\t5\tfive"), std::string::npos) << check.output;
    const Outcome broken = advlock_cli({"check", write_file("cli_check_bad.toml", "[locks.a]\nkey = 2147483648000000000000\n")});
    EXPECT_EQ(broken.code, 78);
    EXPECT_NE(broken.output.find("cli_check_bad.toml:2:"), std::string::npos) << broken.output;
    EXPECT_EQ(advlock_cli({"check", "/nonexistent.toml"}).code, 78);
}

TEST(CliHelp, EverySubcommandHasHelp) {
    for (const char *command : {"run", "hold", "status", "key", "sql", "check"}) {
        const Outcome help = advlock_cli({command, "--help"});
        EXPECT_EQ(help.code, 0) << command;
        EXPECT_EQ(help.output.rfind(std::string("usage: advlock ") + command, 0), 0u) << help.output;
    }
    EXPECT_EQ(advlock_cli({"--help"}).code, 0);
    EXPECT_NE(advlock_cli({"--version"}).output.find(ADVLOCK_VERSION), std::string::npos);
}

TEST(CliLocal, LocalBackendExcludesAcrossProcesses) {
    char pattern[] = "/tmp/advlock-cli-local.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    const std::string db = std::string("local:") + pattern;
    ChildProcess first({kAdvlock, "run", "--db", db, "--name", job_name(), "--", "sh", "-c",
                        "echo started; while :; do sleep 0.05; done"},
                       true);
    EXPECT_EQ(first.read_line(), "started");
    const Outcome second = advlock_cli({"run", "--db", db, "--name", job_name(), "--", "true"});
    EXPECT_EQ(second.code, 3);
    EXPECT_NE(second.output.find("is held by pid"), std::string::npos) << second.output;
    const Outcome status = advlock_cli({"status", "--db", db});
    EXPECT_NE(status.output.find("holds"), std::string::npos) << status.output;
    first.kill(SIGTERM);
    EXPECT_EQ(first.wait(), 128 + SIGTERM);
    EXPECT_EQ(advlock_cli({"run", "--db", db, "--name", job_name(), "--", "true"}).code, 0);
    std::system((std::string("rm -rf ") + pattern).c_str());
}

TEST(CliLocal, AlsoLocalTakesTheHostLockFirst) {
    ChildProcess first({kAdvlock, "run", "--db", postgres_url(), "--also-local", "--name", job_name(), "--", "sh", "-c",
                        "echo started; while :; do sleep 0.05; done"},
                       true);
    EXPECT_EQ(first.read_line(), "started");
    const Outcome second = advlock_cli({"run", "--db", postgres_url(), "--also-local", "--name", job_name(), "--", "true"});
    EXPECT_EQ(second.code, 3);
    EXPECT_NE(second.output.find("on this host"), std::string::npos) << second.output;
    first.kill(SIGTERM);
    EXPECT_EQ(first.wait(), 128 + SIGTERM);
    EXPECT_EQ(advlock_cli({"run", "--db", "local", "--also-local", "--name", "x", "--", "true"}).code, 64);
}

TEST(CliLocal, AlsoLocalTakesTheHostLockInTheDirectoryGiven) {
    char pattern[] = "/tmp/advlock-cli-also-local.XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    const std::string local = std::string("local:") + pattern + "/locks";
    ChildProcess first({kAdvlock, "run", "--db", postgres_url(), "--also-local", "--local-url", local, "--name",
                        job_name(), "--application-name", job_name(), "--", "sh", "-c",
                        "echo started; while :; do sleep 0.05; done"},
                       true);
    EXPECT_EQ(first.read_line(), "started");
    struct stat info {};
    EXPECT_EQ(stat((std::string(pattern) + "/locks").c_str(), &info), 0) << "the host lock is in that directory";
    const Outcome second = advlock_cli(
        {"run", "--db", postgres_url(), "--also-local", "--local-url", local, "--name", job_name(), "--", "true"});
    EXPECT_EQ(second.code, 3) << second.output;
    EXPECT_NE(second.output.find("on this host"), std::string::npos) << second.output;
    first.kill(SIGTERM);
    EXPECT_EQ(first.wait(), 128 + SIGTERM);
    const Outcome bad = advlock_cli({"run", "--db", postgres_url(), "--also-local", "--local-url",
                                     "postgresql://u:Sup3rS3cret@elsewhere/db", "--name", job_name(), "--", "true"});
    EXPECT_EQ(bad.code, 64) << bad.output;
    EXPECT_NE(bad.output.find("local:/DIR?group=NAME"), std::string::npos) << bad.output;
    EXPECT_EQ(bad.output.find("Sup3rS3cret"), std::string::npos) << bad.output;
    std::system((std::string("rm -rf ") + pattern).c_str());
}

TEST(CliRun, WaitingShowsALiveLineOnATerminalOnly) {
    Session holder = open_session("cli-live-holder");
    advlock_key key;
    advlock_key_from_name(&key, job_name().c_str(), ADVLOCK_NUL_TERMINATED);
    Lock held = take(holder, key);
    const std::string command = kAdvlock + " run --db '" + postgres_url() + "' --name " + job_name() +
                                " --wait 1500ms -- true";
    // script(1) gives the command a terminal.
    const Outcome on_terminal = [&] {
        ChildProcess child({"script", "-qec", command, "/dev/null"}, true);
        std::string output = child.read_all();
        return Outcome{child.wait(), output};
    }();
    EXPECT_EQ(on_terminal.code, 3) << on_terminal.output;
    EXPECT_NE(on_terminal.output.find("advlock: waiting"), std::string::npos) << on_terminal.output;
    EXPECT_NE(on_terminal.output.find("application cli-live-holder"), std::string::npos) << on_terminal.output;

    const Outcome quiet =
        advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--wait", "300ms", "--", "true"});
    EXPECT_EQ(quiet.code, 3);
    EXPECT_EQ(quiet.output.find("waiting"), std::string::npos) << quiet.output;
}

TEST(CliOncePer, RunsOncePerPeriodAndSaysWhenAlreadyDone) {
    Psql psql;
    psql.script(advlock_cli({"sql", "ledger"}).output);  // idempotent: CREATE TABLE IF NOT EXISTS
    const std::string marker = ::testing::TempDir() + "advlock_once_per_marker";
    std::remove(marker.c_str());
    const std::vector<std::string> run = {"run", "--db", postgres_url(), "--name", job_name(), "--once-per", "day",
                                          "--", "sh", "-c", "echo ran >> " + marker};
    EXPECT_EQ(advlock_cli(run).code, 0);
    const Outcome again = advlock_cli(run);
    EXPECT_EQ(again.code, 0) << again.output;
    EXPECT_NE(again.output.find("already completed this day"), std::string::npos) << again.output;
    std::ifstream runs(marker);
    std::string all((std::istreambuf_iterator<char>(runs)), std::istreambuf_iterator<char>());
    EXPECT_EQ(all, "ran\n") << "the second start must not run the job";

    // A failed run is not recorded: the next start runs.
    const std::vector<std::string> failing = {"run", "--db", postgres_url(), "--name", job_name() + ".failing",
                                              "--once-per", "hour", "--", "sh", "-c", "exit 5"};
    EXPECT_EQ(advlock_cli(failing).code, 5);
    EXPECT_EQ(advlock_cli(failing).code, 5);
    EXPECT_EQ(psql.value("SELECT count(*) FROM advlock_run_ledger WHERE job = $1", {job_name()}), "1");
}

TEST(CliOncePer, MissingLedgerTableAndLocalBackendAreConfigErrors) {
    Psql admin;
    admin.script("DROP DATABASE IF EXISTS advlock_no_ledger");
    admin.script("CREATE DATABASE advlock_no_ledger");
    std::string url = postgres_url();
    url.replace(url.rfind('/') + 1, std::string::npos, "advlock_no_ledger");
    const Outcome missing = advlock_cli({"run", "--db", url, "--name", job_name(), "--once-per", "week", "--", "true"});
    EXPECT_EQ(missing.code, 78) << missing.output;
    EXPECT_NE(missing.output.find("advlock sql ledger | psql"), std::string::npos) << missing.output;
    const Outcome local = advlock_cli({"run", "--db", "local", "--name", job_name(), "--once-per", "day", "--", "true"});
    EXPECT_EQ(local.code, 78) << local.output;
    EXPECT_NE(local.output.find("local backend has none"), std::string::npos) << local.output;
    const Outcome bad = advlock_cli({"run", "--db", url, "--name", "x", "--once-per", "fortnight", "--", "true"});
    EXPECT_EQ(bad.code, 64);
    EXPECT_NE(bad.output.find("give hour, day, week or month"), std::string::npos) << bad.output;
}

TEST(CliConfig, SettingsComeFromTheConfigUnlessGivenOnTheCommandLine) {
    const std::string registry = write_file("cli_config_registry.toml", "[locks.configured_job]\nkey = [4300, 1]\n");
    const std::string config = write_file("cli_config.toml", "database = \"" + postgres_url() + "\"\nregistry = \"" +
                                                                 registry + "\"\n[run]\nconflict_exit_code = 9\n");
    Session holder = open_session();
    Lock held = take(holder, advlock_key_pair(4300, 1));
    // Database, registry and conflict code all from the file: a short crontab line.
    const Outcome from_file = advlock_cli({"run", "--config", config, "--name", "configured_job", "--", "true"});
    EXPECT_EQ(from_file.code, 9) << from_file.output;
    EXPECT_NE(from_file.output.find("configured_job is held by pid"), std::string::npos) << from_file.output;
    // The command line wins.
    EXPECT_EQ(advlock_cli({"run", "--config", config, "--conflict-exit-code", "4", "--name", "configured_job", "--",
                           "true"})
                  .code,
              4);
    const Outcome status = advlock_cli({"status", "--config", config});
    EXPECT_NE(status.output.find("configured_job"), std::string::npos) << status.output;
}

TEST(CliConfig, BrokenOrMissingConfigExits78) {
    const Outcome broken = advlock_cli(
        {"run", "--config", write_file("cli_config_bad.toml", "[run]\nkill_grace = 5\n"), "--name", "x", "--", "true"});
    EXPECT_EQ(broken.code, 78);
    EXPECT_NE(broken.output.find("cli_config_bad.toml:2:"), std::string::npos) << broken.output;
    const Outcome missing = advlock_cli({"run", "--config", "/nonexistent/advlock.toml", "--name", "x", "--", "true"});
    EXPECT_EQ(missing.code, 78);
    EXPECT_NE(missing.output.find("/nonexistent/advlock.toml"), std::string::npos) << missing.output;
}

TEST(CliRun, UnsafeTargetExits69AndSaysWhy) {
    ScriptedServer bouncer("pgbouncer-start.sh", "pgbouncer-stop.sh", postgres_state_dir());
    const Outcome refused = advlock_cli({"run", "--db", bouncer.url(), "--name", job_name(), "--", "true"});
    EXPECT_EQ(refused.code, 69);
    EXPECT_NE(refused.output.find("connection pooler"), std::string::npos) << refused.output;
}

TEST(CliRun, RoleWithoutTheRightExits77) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    Psql admin(server.url());
    admin.query("CREATE ROLE locker LOGIN PASSWORD 'locker-pw'");
    admin.query("REVOKE EXECUTE ON FUNCTION pg_try_advisory_lock(bigint) FROM PUBLIC");
    const std::string url = with_credentials(server.url(), "locker", "locker-pw");
    const Outcome refused = advlock_cli({"run", "--db", url, "--name", job_name(), "--", "true"});
    EXPECT_EQ(refused.code, 77);
    EXPECT_NE(refused.output.find("grant EXECUTE"), std::string::npos) << refused.output;
}

TEST(CliRun, RevokedFromPublicIsExit77AndStatusStillWorks) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    const Outcome revoke = advlock_cli({"sql", "revoke", "--role", "PUBLIC"});
    const Outcome grant = advlock_cli({"sql", "grant", "--role", "batch"});
    ASSERT_EQ(revoke.code, 0);
    ASSERT_EQ(grant.code, 0);
    Psql admin(server.url());
    admin.script("CREATE ROLE batch LOGIN PASSWORD 'batch-pw'; CREATE ROLE other LOGIN PASSWORD 'other-pw';" +
                 revoke.output + grant.output);
    const std::string other = with_credentials(server.url(), "other", "other-pw");
    const Outcome refused = advlock_cli({"run", "--db", other, "--name", job_name(), "--", "true"});
    EXPECT_EQ(refused.code, 77) << refused.output;
    EXPECT_NE(refused.output.find("advlock sql grant --role other"), std::string::npos) << refused.output;
    const Outcome looked = advlock_cli({"status", "--db", other, "--name", job_name()});
    EXPECT_EQ(looked.code, 0) << "status reads pg_locks; it needs no lock rights: " << looked.output;
    const std::string batch = with_credentials(server.url(), "batch", "batch-pw");
    EXPECT_EQ(advlock_cli({"run", "--db", batch, "--name", job_name(), "--", "true"}).code, 0);
}

TEST(CliRun, WhatTheServerSaysIsEscapedOnTheTerminal) {
    // The server's refusal repeats the user name, here one with an escape
    // sequence (ESC [31m, red) written percent-encoded in the URL.
    std::string url = with_credentials(postgres_url(), "%1B%5B31mevil", "pw");
    const Outcome refused = advlock_cli({"run", "--db", url, "--name", job_name(), "--", "true"});
    EXPECT_EQ(refused.code, 69) << refused.output;
    EXPECT_EQ(refused.output.find('\x1b'), std::string::npos) << refused.output;
    EXPECT_NE(refused.output.find("\\x1B[31mevil"), std::string::npos) << refused.output;
}

TEST(CliRun, CommandThatIsNotExecutableExits126) {
    const std::string script = write_file("advlock_not_executable.sh", "#!/bin/sh\necho hi\n");
    chmod(script.c_str(), 0644);
    const Outcome outcome = advlock_cli({"run", "--db", postgres_url(), "--name", job_name(), "--", script});
    EXPECT_EQ(outcome.code, 126) << outcome.output;
    EXPECT_NE(outcome.output.find("cannot run"), std::string::npos) << outcome.output;
}
