// advlock run never leaves the job running without the lock: the job is the
// command and everything it starts (a wrapper script without exec and its
// grandchildren, a process that left the group), stopped as a whole on a lost
// lock or a termination signal, killed when advlock itself is killed, and
// given back the signal dispositions advlock inherited. Each test asserts what
// happened to the processes, not only exit codes. Waits are "until seen".
#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/child_process.hpp"
#include "support/process_state.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

const std::string kAdvlock = ADVLOCK_CLI;

std::string job_name() {
    return std::string("cli.job.") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
}

// The test's own lock name and application name: other tests running at the
// same time look for sessions by application name.
std::vector<std::string> advlock_run(const std::vector<std::string> &options, const std::vector<std::string> &job) {
    std::vector<std::string> argv = {kAdvlock, "run", "--db", postgres_url(), "--name", job_name(),
                                     "--application-name", job_name()};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--");
    argv.insert(argv.end(), job.begin(), job.end());
    return argv;
}

// Terminates the server session of the `advlock run` whose application name is given, once it holds its lock.
void terminate_lock_session(const std::string &application) {
    Psql psql;
    for (;;) {
        const auto rows = psql.query(std::string("SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a WHERE "
                                                 "a.application_name = $1 AND EXISTS (SELECT 1 FROM ") +
                                         kJobAdvisoryLocks + " AND granted AND pid = a.pid)",
                                     {application});
        if (!rows.empty()) return;
    }
}

// The bits of /proc/PID/status's "SigIgn:" line a job printed.
unsigned long long ignored_mask(const std::string &line) {
    EXPECT_EQ(line.rfind("SigIgn:", 0), 0u) << line;
    return std::stoull(line.substr(line.find_first_not_of(" \t", 7)), nullptr, 16);
}

bool ignores(unsigned long long mask, int signal) { return (mask >> (signal - 1)) & 1; }

}  // namespace

TEST(JobSupervision, TheCommandRunsInAProcessGroupOfItsOwn) {
    ChildProcess run(advlock_run({}, {"sh", "-c", "echo $$ $(cut -d' ' -f5 /proc/$$/stat)"}), true);
    const std::string line = run.read_line();
    const std::string pid = line.substr(0, line.find(' ')), group = line.substr(line.find(' ') + 1);
    EXPECT_EQ(pid, group) << "the command leads its own group";
    EXPECT_NE(std::stoi(group), getpgrp());
    EXPECT_EQ(run.wait(), 0);
}

TEST(JobSupervision, ALostLockStopsTheGrandchildrenOfAWrapperWithoutExec) {
    // bash runs the job without exec; its child ignores SIGTERM (SIGKILL after
    // the grace then), and one more process left the group with setsid.
    const std::string wrapper =
        "sh -c 'trap \"\" TERM; echo stubborn $$; while :; do sleep 1; done' & "
        "setsid sh -c 'echo escaped $$; while :; do sleep 1; done' & "
        "wait; echo wrapper-done";
    ChildProcess run(advlock_run({"--kill-grace", "200ms"}, {"bash", "-c", wrapper}),
                     true);
    pid_t stubborn = 0, escaped = 0;
    for (int i = 0; i < 2; ++i) {
        const std::string line = run.read_line();
        (line.rfind("stubborn", 0) == 0 ? stubborn : escaped) = std::stoi(line.substr(line.find(' ') + 1));
    }
    ASSERT_GT(stubborn, 0);
    ASSERT_GT(escaped, 0);
    terminate_lock_session(job_name());
    const std::string output = run.read_all();
    EXPECT_EQ(run.wait(), 75) << output;
    EXPECT_NE(output.find("stopping bash and everything it started"), std::string::npos) << output;
    // advlock returned only once nothing of the job was left.
    EXPECT_TRUE(process_gone(stubborn)) << "the grandchild that ignored SIGTERM";
    EXPECT_TRUE(process_gone(escaped)) << "the process that left the job's group";
}

TEST(JobSupervision, KillingAdvlockTakesTheWholeJobDown) {
    ChildProcess run(advlock_run({}, {"sh", "-c", "sleep 3600 & echo $$ $!; wait"}), true);
    const std::string line = run.read_line();
    const pid_t wrapper = std::stoi(line), grandchild = std::stoi(line.substr(line.find(' ') + 1));
    run.kill(SIGKILL);
    EXPECT_EQ(run.wait(), 128 + SIGKILL);
    EXPECT_TRUE(wait_until_gone(wrapper)) << "the command";
    EXPECT_TRUE(wait_until_gone(grandchild)) << "the command's child";
    // The server freed the lock with advlock's connection: the next start runs.
    const std::vector<std::string> next = advlock_run({"--wait", "1m"}, {"true"});
    ChildProcess again(next, true);
    EXPECT_EQ(again.wait(), 0) << again.read_all();
}

TEST(JobSupervision, ATerminationSignalReachesTheWholeJobThenSigkill) {
    ChildProcess run(advlock_run({"--kill-grace", "200ms"},
                                 {"bash", "-c", "sh -c 'trap \"\" TERM; echo $$; while :; do sleep 1; done'; echo after"}),
                     true);
    const pid_t grandchild = std::stoi(run.read_line());
    run.kill(SIGTERM);
    const std::string output = run.read_all();
    EXPECT_EQ(run.wait(), 128 + SIGTERM) << "bash's own status: " << output;
    EXPECT_EQ(output.find("after"), std::string::npos) << output;
    EXPECT_TRUE(process_gone(grandchild)) << "ignored SIGTERM, got SIGKILL after the grace";
}

TEST(JobSupervision, TheLockStaysHeldUntilWhatTheCommandLeftBehindEnds) {
    const TempDirectory scratch("advlock-leftover");
    const std::string dir = scratch.path(), fifo = dir + "/go", db = "local:" + dir + "/locks";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    ChildProcess run({kAdvlock, "run", "--db", db, "--name", "leftover", "--", "sh", "-c",
                      "(read x < " + fifo + "; echo background-done) & echo started"},
                     true);
    EXPECT_EQ(run.read_line(), "started");
    EXPECT_NE(run.read_line().find("but left processes running"), std::string::npos);
    ChildProcess second({kAdvlock, "run", "--db", db, "--name", "leftover", "--", "true"}, true);
    EXPECT_EQ(second.wait(), 3) << "the command exited, but its background process still runs under the lock";
    std::ofstream(fifo) << "go\n";
    EXPECT_EQ(run.read_line(), "background-done");
    EXPECT_EQ(run.wait(), 0);
    ChildProcess third({kAdvlock, "run", "--db", db, "--name", "leftover", "--", "true"}, true);
    EXPECT_EQ(third.wait(), 0) << third.read_all();
}

TEST(JobSupervision, ABrokenStderrDoesNotKillAdvlockBeforeTheJobIsStopped) {
    int broken[2];
    ASSERT_EQ(pipe(broken), 0);
    close(broken[0]);  // advlock's stderr leads nowhere: writing to it raises SIGPIPE
    ChildProcess run(advlock_run({},
                                 {"sh", "-c", "grep SigIgn /proc/self/status; echo $$; while :; do sleep 1; done"}),
                     /*merge_stderr=*/false, /*stderr_fd=*/broken[1]);
    close(broken[1]);
    EXPECT_FALSE(ignores(ignored_mask(run.read_line()), SIGPIPE)) << "the job gets SIGPIPE's default back";
    const pid_t job = std::stoi(run.read_line());
    terminate_lock_session(job_name());
    EXPECT_EQ(run.wait(), 75) << "not 128 + SIGPIPE: advlock outlived its broken stderr";
    EXPECT_TRUE(process_gone(job));
}

TEST(JobSupervision, SignalsIgnoredAtStartStayIgnoredForTheJob) {
    const std::vector<std::string> job = {
        "sh", "-c", "trap 'echo usr1; exit 5' USR1; grep SigIgn /proc/self/status; echo $$; "
                    "while :; do sleep 0.05; done"};
    std::vector<std::string> argv = advlock_run({}, job);
    argv.insert(argv.begin(), "nohup");  // SIGHUP ignored from the start, as cron users do it
    ChildProcess run(argv, true);
    std::string line = run.read_line();
    if (line.rfind("nohup:", 0) == 0) line = run.read_line();
    EXPECT_TRUE(ignores(ignored_mask(line), SIGHUP)) << line;
    EXPECT_FALSE(ignores(ignored_mask(line), SIGPIPE)) << line;
    const pid_t shell = std::stoi(run.read_line());
    kill(shell, SIGHUP);       // ignored by the job...
    run.kill(SIGHUP);          // ...and by advlock
    run.kill(SIGUSR1);         // both still there: the job hears this one, and exits 5
    EXPECT_EQ(run.read_line(), "usr1");
    EXPECT_EQ(run.wait(), 5);

    // Without nohup, the job does not inherit advlock's own dispositions.
    ChildProcess plain(advlock_run({}, {"grep", "SigIgn", "/proc/self/status"}), true);
    const unsigned long long mask = ignored_mask(plain.read_line());
    EXPECT_FALSE(ignores(mask, SIGHUP));
    EXPECT_FALSE(ignores(mask, SIGPIPE));
    EXPECT_EQ(plain.wait(), 0);
}

TEST(JobSupervision, ASignalDuringAWaitCancelsItOnTheServer) {
    Session holder = open_session("job-wait-holder");
    advlock_key key;
    advlock_key_from_name(&key, job_name().c_str(), ADVLOCK_NUL_TERMINATED);
    Lock held = take(holder, key);
    const std::string marker = ::testing::TempDir() + "advlock_wait_cancel_marker";
    std::remove(marker.c_str());
    ChildProcess waiting(advlock_run({"--wait", "1h"}, {"touch", marker}), true);
    Psql psql;
    std::string waiter;  // the server pid of advlock's waiting session
    while (waiter.empty()) {
        const auto rows = psql.query(std::string("SELECT pid FROM ") + kJobAdvisoryLocks +
                                     " AND NOT granted AND pid IN (SELECT pid FROM pg_stat_activity WHERE "
                                     "application_name = $1)",
                                     {job_name()});
        if (!rows.empty()) waiter = rows[0][0];
    }
    waiting.kill(SIGTERM);
    const std::string output = waiting.read_all();
    EXPECT_EQ(waiting.wait(), 128 + SIGTERM) << output;
    EXPECT_NE(output.find("SIGTERM while waiting for the lock"), std::string::npos) << output;
    // Deterministic: advlock exits only after the server has cancelled the wait.
    EXPECT_EQ(psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks + " AND NOT granted AND pid = $1::int",
                         {waiter}),
              "0");
    EXPECT_NE(access(marker.c_str(), F_OK), 0) << "the command never ran";
}
