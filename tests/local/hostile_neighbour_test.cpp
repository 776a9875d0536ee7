// Another user of the host against `advlock run --db local`: each attack runs
// in a private mount namespace with a fresh tmpfs on /run/lock (so the real
// /run/lock/advlock is never touched), the attacker is an unprivileged user
// (nobody, or a bare uid) and advlock runs as root or as another unprivileged
// user. Each test asserts what happened to the files and processes, not only
// exit codes. Needs root (CI and the development machines run as root);
// anywhere else every test is skipped with the reason.
#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <string>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "advlock.h"
#include "support/child_process.hpp"
#include "support/process_state.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

const std::string kAdvlock = ADVLOCK_CLI;
constexpr uid_t kNobody = 65534;
constexpr uid_t kAlice = 4242;  // a second unprivileged user: uids need no passwd entry
constexpr gid_t kBatchGroup = 4300;

// The file `advlock run --db local --name job` locks: "<key text>.lock".
std::string job_lock_file() {
    advlock_key key;
    EXPECT_EQ(advlock_key_from_name(&key, "job", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    char text[ADVLOCK_KEY_TEXT_SIZE];
    EXPECT_EQ(advlock_key_format(text, sizeof text, &key), ADVLOCK_OK);
    return std::string("/run/lock/advlock/") + text + ".lock";
}
const std::string kLockFile = job_lock_file();

struct Outcome {
    int code;
    std::string output;
};

Outcome run(std::vector<std::string> argv) {
    ChildProcess child(argv, /*merge_stderr=*/true);
    std::string output = child.read_all();
    return {child.wait(), output};
}

// argv prefixed to run it as uid (with gid and the supplementary groups given).
std::vector<std::string> as_user(uid_t uid, std::vector<std::string> argv, const std::string &groups = "") {
    std::vector<std::string> prefix = {"setpriv", "--reuid=" + std::to_string(uid), "--regid=" + std::to_string(uid)};
    prefix.push_back(groups.empty() ? "--clear-groups" : "--groups=" + groups);
    prefix.insert(prefix.end(), argv.begin(), argv.end());
    return prefix;
}

// The attacker's shell command, as nobody; fails the test if it fails.
void attacker(const std::string &command) {
    const Outcome done = run(as_user(kNobody, {"sh", "-c", command}));
    ASSERT_EQ(done.code, 0) << command << ": " << done.output;
}

std::vector<std::string> advlock_run(const std::vector<std::string> &job, const std::string &db = "local") {
    std::vector<std::string> argv = {kAdvlock, "run", "--db", db, "--name", "job", "--"};
    argv.insert(argv.end(), job.begin(), job.end());
    return argv;
}

struct stat stat_of(const std::string &path) {
    struct stat info {};
    EXPECT_EQ(lstat(path.c_str(), &info), 0) << path << ": " << std::strerror(errno);
    return info;
}

bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

class HostileNeighbour : public ::testing::Test {
protected:
    void SetUp() override {
        if (geteuid() != 0) GTEST_SKIP() << "needs root (to be root and other users, and to mount); running as uid " << geteuid();
        // Each test is its own process (ctest): the namespace ends with it.
        if (unshare(CLONE_NEWNS) != 0) GTEST_SKIP() << "no private mount namespace: unshare: " << std::strerror(errno);
        ASSERT_EQ(mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr), 0) << std::strerror(errno);
        ASSERT_EQ(mount("tmpfs", "/run/lock", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777"), 0) << std::strerror(errno);
        ASSERT_EQ(chmod(scratch_.c_str(), 0755), 0);
        const Outcome runnable = run(as_user(kNobody, {kAdvlock, "--version"}));
        if (runnable.code != 0) {
            GTEST_SKIP() << "an unprivileged user cannot run " << kAdvlock << " from this checkout: " << runnable.output;
        }
    }
    // A root-only file an attacker would like to open up.
    std::string victim() {
        const std::string path = scratch_ + "/root-only";
        std::ofstream(path) << "secret\n";
        EXPECT_EQ(chmod(path.c_str(), 0600), 0);
        return path;
    }

    TempDirectory directory_{"advlock-hostile"};
    const std::string scratch_ = directory_.path();
};

}  // namespace

TEST_F(HostileNeighbour, ASymlinkInADirectoryTheAttackerMadeOpensNothingUp) {
    const std::string target = victim(), marker = scratch_ + "/ran";
    attacker(std::string("mkdir -m777 /run/lock/advlock && ln -s ") + target + " " + kLockFile);
    const Outcome refused = run(advlock_run({"touch", marker}));
    EXPECT_EQ(refused.code, 78) << refused.output;
    EXPECT_NE(refused.output.find("the lock directory /run/lock/advlock belongs to nobody (uid 65534)"),
              std::string::npos)
        << refused.output;
    EXPECT_FALSE(exists(marker)) << "the job must not run";
    EXPECT_EQ(stat_of(target).st_mode & 07777, 0600u) << "the root-only file stays root-only";
    EXPECT_EQ(stat_of("/run/lock/advlock").st_mode & 07777, 0777u) << "and the directory is left as it was";
}

TEST_F(HostileNeighbour, ASymlinkInRootsOwnDirectoryIsRefused) {
    const std::string target = victim(), marker = scratch_ + "/ran";
    ASSERT_EQ(run(advlock_run({"true"})).code, 0);  // root makes the shared directory
    const struct stat directory = stat_of("/run/lock/advlock");
    EXPECT_EQ(directory.st_mode & 07777, 01777u);
    EXPECT_EQ(directory.st_uid, 0u);
    ASSERT_EQ(unlink(kLockFile.c_str()), 0);
    attacker("ln -s " + target + " " + kLockFile);
    const Outcome refused = run(advlock_run({"touch", marker}));
    EXPECT_EQ(refused.code, 78) << refused.output;
    EXPECT_NE(refused.output.find("is a symbolic link to '" + target + "', made by nobody"), std::string::npos)
        << refused.output;
    EXPECT_FALSE(exists(marker));
    EXPECT_EQ(stat_of(target).st_mode & 07777, 0600u);
    EXPECT_EQ(stat_of(target).st_uid, 0u);
}

TEST_F(HostileNeighbour, ADirectoryAnotherUserMadeFirstIsRefusedByEveryoneElse) {
    attacker("mkdir -m755 /run/lock/advlock");
    const Outcome root = run(advlock_run({"true"}));
    EXPECT_EQ(root.code, 78) << root.output;
    EXPECT_NE(root.output.find("belongs to nobody (uid 65534), not to root or to you"), std::string::npos)
        << root.output;
    const Outcome alice = run(as_user(kAlice, advlock_run({"true"})));
    EXPECT_EQ(alice.code, 78) << alice.output;
    EXPECT_EQ(stat_of("/run/lock/advlock").st_uid, kNobody) << "advlock never takes over someone's directory";
}

TEST_F(HostileNeighbour, AnUnreadableLockFileNamesItsOwner) {
    ASSERT_EQ(run(advlock_run({"true"})).code, 0);
    ASSERT_EQ(unlink(kLockFile.c_str()), 0);
    attacker(std::string("touch ") + kLockFile + " && chmod 600 " + kLockFile);
    const Outcome alice = run(as_user(kAlice, advlock_run({"true"})));
    EXPECT_EQ(alice.code, 77) << alice.output;
    EXPECT_NE(alice.output.find("it belongs to nobody (uid 65534) with mode 0600"), std::string::npos)
        << alice.output;
    // Root can open it, and leaves it as the attacker made it.
    const Outcome root = run(advlock_run({"true"}));
    EXPECT_EQ(root.code, 0) << root.output;
    EXPECT_EQ(stat_of(kLockFile).st_mode & 07777, 0600u);
    EXPECT_EQ(stat_of(kLockFile).st_uid, kNobody);
}

TEST_F(HostileNeighbour, ADirectoryWithTheLocksNameIsRefused) {
    ASSERT_EQ(run(advlock_run({"true"})).code, 0);
    ASSERT_EQ(unlink(kLockFile.c_str()), 0);
    attacker(std::string("mkdir ") + kLockFile);
    const Outcome refused = run(advlock_run({"true"}));
    EXPECT_EQ(refused.code, 78) << refused.output;
    EXPECT_NE(refused.output.find("is a directory, made by nobody"), std::string::npos) << refused.output;
}

TEST_F(HostileNeighbour, AnotherUserHoldingTheLockIsNamed) {
    ASSERT_EQ(run(advlock_run({"true"})).code, 0);
    ASSERT_EQ(unlink(kLockFile.c_str()), 0);
    ChildProcess hold(as_user(kNobody, {kAdvlock, "hold", "--db", "local", "--name", "job"}), true);
    ASSERT_NE(hold.read_line().find("holding job"), std::string::npos);
    const Outcome skipped = run(advlock_run({"true"}));
    EXPECT_EQ(skipped.code, 3) << skipped.output;
    EXPECT_NE(skipped.output.find("job is held by pid " + std::to_string(hold.pid())), std::string::npos)
        << skipped.output;
    EXPECT_NE(skipped.output.find("user nobody"), std::string::npos) << skipped.output;
}

TEST_F(HostileNeighbour, AHolderOnAnotherFileSystemIsNotNamed) {
    // Two fresh tmpfs number their files alike: the same lock file made in
    // each has the same inode, on another device.
    std::string urls[2], files[2];
    for (int i = 0; i < 2; ++i) {
        const std::string mount_point = scratch_ + "/fs" + std::to_string(i);
        ASSERT_EQ(mkdir(mount_point.c_str(), 0755), 0);
        ASSERT_EQ(mount("tmpfs", mount_point.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "mode=755"), 0)
            << std::strerror(errno);
        urls[i] = "local:" + mount_point + "/advlock";
        files[i] = mount_point + "/advlock" + kLockFile.substr(kLockFile.rfind('/'));
        ASSERT_EQ(run(advlock_run({"true"}, urls[i])).code, 0);
    }
    if (stat_of(files[0]).st_ino != stat_of(files[1]).st_ino) {
        GTEST_SKIP() << "this kernel numbers tmpfs files across mounts: no two lock files share an inode";
    }
    ChildProcess hold({kAdvlock, "hold", "--db", urls[0], "--name", "job"}, true);
    ASSERT_NE(hold.read_line().find("holding job"), std::string::npos);
    const Outcome other = run({kAdvlock, "status", "--db", urls[1], "--name", "job"});
    EXPECT_EQ(other.code, 0) << other.output;
    EXPECT_EQ(other.output.find(std::to_string(hold.pid())), std::string::npos) << other.output;
    const Outcome same = run({kAdvlock, "status", "--db", urls[0], "--name", "job"});
    EXPECT_NE(same.output.find(std::to_string(hold.pid())), std::string::npos) << same.output;
    hold.kill(SIGTERM);
    hold.wait();
}

TEST_F(HostileNeighbour, ALockFileRemovedWhileHeldStopsTheJob) {
    ASSERT_EQ(run(advlock_run({"true"})).code, 0);
    ASSERT_EQ(unlink(kLockFile.c_str()), 0);
    attacker(std::string("touch ") + kLockFile);  // made first by nobody, who may therefore remove it
    ChildProcess job(advlock_run({"sh", "-c", "echo $$; while :; do sleep 1; done"}), true);
    const pid_t shell = std::stoi(job.read_line());
    attacker(std::string("rm ") + kLockFile);
    const std::string output = job.read_all();
    EXPECT_EQ(job.wait(), 75) << output;
    EXPECT_NE(output.find("was removed or replaced while held"), std::string::npos) << output;
    EXPECT_NE(output.find("belonged to nobody"), std::string::npos) << output;
    EXPECT_TRUE(process_gone(shell)) << "advlock exits only once the job is gone";
    const Outcome next = run(advlock_run({"true"}));
    EXPECT_EQ(next.code, 0) << next.output;
}

TEST_F(HostileNeighbour, AGroupOnlyDirectoryLetsItsMembersInAndNoOneElse) {
    const std::string db = "local:/run/lock/advlock-batch?group=" + std::to_string(kBatchGroup);
    const Outcome made = run(advlock_run({"true"}, db));
    ASSERT_EQ(made.code, 0) << made.output;
    const struct stat directory = stat_of("/run/lock/advlock-batch");
    EXPECT_EQ(directory.st_mode & 07777, 03770u);
    EXPECT_EQ(directory.st_gid, kBatchGroup);
    const std::string group = std::to_string(kBatchGroup);
    const Outcome member = run(as_user(kAlice, advlock_run({"true"}, db), group));
    EXPECT_EQ(member.code, 0) << member.output;
    const Outcome outsider = run(as_user(kNobody, advlock_run({"true"}, db)));
    EXPECT_EQ(outsider.code, 77) << outsider.output;
    EXPECT_NE(outsider.output.find("does not let you (nobody (uid 65534)) in"), std::string::npos) << outsider.output;
    // Members exclude each other like everyone else.
    ChildProcess held(as_user(kAlice, advlock_run({"sh", "-c", "echo started; while :; do sleep 1; done"}, db), group),
                      true);
    ASSERT_EQ(held.read_line(), "started");
    EXPECT_EQ(run(advlock_run({"true"}, db)).code, 3);
}
