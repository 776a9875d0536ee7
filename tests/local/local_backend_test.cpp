// The host-local flock backend through the C ABI: the same contract as the
// PostgreSQL sessions, in a lock directory of the test's own.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <string>
#include <thread>
#include <vector>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

class LocalBackend : public ::testing::Test {
protected:
    TempDirectory scratch_{"advlock-local-test"};
    const std::string directory_ = scratch_.path();
    const std::string url_ = "local:" + directory_;

    Session open() {
        advlock_session *session = nullptr;
        EXPECT_EQ(advlock_session_open(&session, url_.c_str(), nullptr), ADVLOCK_OK) << advlock_error_last()->message;
        return Session(session);
    }

};

// The /proc/self/task entries of advlock's watchdog threads, by their name.
std::vector<std::filesystem::path> watchdog_threads() {
    std::vector<std::filesystem::path> found;
    for (const auto &entry : std::filesystem::directory_iterator("/proc/self/task")) {
        std::string name;
        std::getline(std::ifstream(entry.path() / "comm"), name);
        if (name == "advlock-watch") found.push_back(entry.path());
    }
    return found;
}

// The first line of a /proc file that starts with label; empty when none does.
std::string task_line(const std::filesystem::path &file, const std::string &label) {
    std::ifstream lines(file);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(label, 0) == 0) return line;
    }
    return {};
}

}  // namespace

TEST_F(LocalBackend, SessionsExcludeEachOtherUntilRelease) {
    Session a = open(), b = open();
    const advlock_key key = advlock_key_pair(100, 1);
    Lock held = take(a, key);
    ASSERT_NE(held, nullptr);
    EXPECT_EQ(take(b, key), nullptr);
    struct stat info {};
    EXPECT_EQ(stat((directory_ + "/100:1.lock").c_str(), &info), 0) << "one file per key, named after it";
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK);
    EXPECT_NE(take(b, key), nullptr);
}

TEST_F(LocalBackend, SharedAndReentrant) {
    Session a = open(), b = open(), c = open();
    const advlock_key key = advlock_key_bigint(-42);
    Lock s1 = take(a, key, ADVLOCK_SHARED), s2 = take(b, key, ADVLOCK_SHARED);
    ASSERT_NE(s1, nullptr);
    ASSERT_NE(s2, nullptr);
    EXPECT_EQ(take(c, key), nullptr);
    Lock again = take(a, key, ADVLOCK_SHARED);  // re-entrant: counted
    ASSERT_NE(again, nullptr);
    s1.reset();
    s2.reset();
    EXPECT_EQ(take(c, key), nullptr) << "a still holds one shared acquisition";
    again.reset();
    Lock c_holds = take(c, key);
    ASSERT_NE(c_holds, nullptr);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, a.get(), of_key(key), ADVLOCK_SHARED), ADVLOCK_NOT_ACQUIRED);
    const advlock_key seven = advlock_key_bigint(7);
    Lock exclusive, shared;
    ASSERT_EQ(acquire(&exclusive, a, seven, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true), ADVLOCK_OK);
    EXPECT_EQ(acquire(&shared, a, seven, ADVLOCK_SHARED, 0, /*reentrant=*/true), ADVLOCK_EUNSUPPORTED)
        << "one owner may not hold both modes on flock";
}

TEST_F(LocalBackend, WaitsTimeOutGetTheLockOrAreCancelled) {
    Session holder = open(), waiter = open();
    const advlock_key key = advlock_key_pair(1, 2);
    Lock held = take(holder, key);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, 30), ADVLOCK_NOT_ACQUIRED);

    auto pending = std::async(std::launch::async, [&] {
        advlock_lock *got = nullptr;
        const advlock_status status = advlock_session_lock(&got, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER);
        advlock_lock_free(got);
        return status;
    });
    held.reset();
    EXPECT_EQ(pending.get(), ADVLOCK_OK);

    Lock again = take(holder, key);
    ASSERT_NE(again, nullptr);
    auto cancelled = std::async(std::launch::async, [&] {
        advlock_lock *got = nullptr;
        return advlock_session_lock(&got, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER);
    });
    // Cancel until the wait has begun and ended (a cancel before it starts is not kept).
    while (cancelled.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
        advlock_session_cancel(waiter.get());
    }
    EXPECT_EQ(cancelled.get(), ADVLOCK_ECANCELED);
}

TEST_F(LocalBackend, RemovedLockFileIsALoss) {
    Session a = open();
    const advlock_key key = advlock_key_pair(9, 9);
    Lock held = take(a, key);
    EXPECT_EQ(advlock_session_check(a.get()), ADVLOCK_OK);
    EXPECT_EQ(advlock_lock_verify(held.get(), ADVLOCK_VERIFY_STRICT), ADVLOCK_OK);
    ASSERT_EQ(std::remove((directory_ + "/9:9.lock").c_str()), 0);
    EXPECT_EQ(advlock_session_check(a.get()), ADVLOCK_ELOST);
    EXPECT_NE(std::string(advlock_error_last()->message).find("removed or replaced"), std::string::npos);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
}

TEST_F(LocalBackend, HoldersComeFromTheKernelsLockTable) {
    Session a = open(), b = open();
    const advlock_key key = advlock_key_pair(5, 5);
    Lock held = take(a, key);
    advlock_holders *raw = nullptr;
    ASSERT_EQ(advlock_session_holders(&raw, b.get(), nullptr, of_key(key)), ADVLOCK_OK) << advlock_error_last()->message;
    Holders holders(raw);
    ASSERT_EQ(advlock_holders_count(raw), 1u);
    const advlock_holder *row = advlock_holders_at(raw, 0);
    EXPECT_EQ(row->server_id, getpid());
    EXPECT_TRUE(((row->flags & ADVLOCK_HOLDER_GRANTED) != 0));
    EXPECT_TRUE(advlock_key_equal(&row->target.key, &key));
    EXPECT_NE(row->application_name, nullptr);
}

TEST_F(LocalBackend, BadLocalUrlsAreRefused) {
    advlock_session *session = nullptr;
    EXPECT_EQ(advlock_session_open(&session, "local:relative/dir", nullptr), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("local:/absolute/dir"), std::string::npos);
    EXPECT_EQ(advlock_session_open(&session, "file:/proc/advlock-cannot-be-here", nullptr), ADVLOCK_EIO);
}

namespace {

void check_from_callback(const advlock_error *, void *payload) {
    auto *session = static_cast<advlock_session *>(payload);
    advlock_session_check(session);  // calls back into the session that lost its lock
}

}  // namespace

TEST_F(LocalBackend, LostCallbackMayCallBackIntoTheSession) {
    Session a = open();
    ASSERT_EQ(advlock_session_set_lost_callback(a.get(), &check_from_callback, a.get()), ADVLOCK_OK);
    Lock held = take(a, advlock_key_pair(8, 8));
    ASSERT_EQ(std::remove((directory_ + "/8:8.lock").c_str()), 0);
    EXPECT_EQ(advlock_session_check(a.get()), ADVLOCK_ELOST);  // fires the callback, which must not deadlock
}

TEST_F(LocalBackend, WatchdogThreadsLeaveSignalsToTheApplication) {
    // A process-directed signal may go to any thread that does not block it;
    // one taken by advlock's watchdog would not wake the application's own
    // threads (Python's main thread waits in a lock acquire only its own
    // signal interrupts). advlock's threads must block them. (Other threads
    // of this process, a sanitizer's, are not advlock's business.)
    Session a = open();
    Lock held = take(a, advlock_key_pair(6, 6));
    const std::vector<std::filesystem::path> watchdogs = watchdog_threads();
    ASSERT_EQ(watchdogs.size(), 1u) << "the session's watchdog thread, by its name";
    const std::string blocked_line = task_line(watchdogs[0] / "status", "SigBlk:");
    ASSERT_FALSE(blocked_line.empty());
    const unsigned long long blocked = std::stoull(blocked_line.substr(7), nullptr, 16);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGCHLD}) {
        EXPECT_TRUE((blocked >> (signal - 1)) & 1) << "signal " << signal;
    }
}

TEST_F(LocalBackend, WatchdogThreadsRunInShortSlices) {
    // A watchdog woken by news of a loss must run at once, not after the
    // running task's slice (a 4 ms p99 in bench/loss_detection_bench):
    // Linux 6.12 on grants a thread a short slice when asked.
    utsname system{};
    ASSERT_EQ(uname(&system), 0);
    int major = 0, minor = 0;
    if (std::sscanf(system.release, "%d.%d", &major, &minor) != 2 || major < 6 || (major == 6 && minor < 12)) {
        GTEST_SKIP() << "Linux " << system.release << " has no per-thread slices (6.12 on)";
    }
    const std::string own_slice = task_line("/proc/thread-self/sched", "se.slice");
    if (own_slice.empty()) GTEST_SKIP() << "this kernel does not show se.slice in /proc/*/sched";
    Session a = open();
    Lock held = take(a, advlock_key_pair(7, 7));
    const std::vector<std::filesystem::path> watchdogs = watchdog_threads();
    ASSERT_EQ(watchdogs.size(), 1u) << "the session's watchdog thread, by its name";
    // The thread asks once it runs, which may be after the session opened.
    const auto slice_ns = [&] {
        const std::string line = task_line(watchdogs[0] / "sched", "se.slice");
        return std::stoull(line.substr(line.find(':') + 1));
    };
    for (int look = 0; look < 500 && slice_ns() != 100000u; ++look) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(slice_ns(), 100000u) << "this thread's: " << own_slice;
}
