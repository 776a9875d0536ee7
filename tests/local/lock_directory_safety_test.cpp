// What the host-local backend does with a lock directory and lock files it
// cannot trust: it refuses them, with ADVLOCK_EUNSAFEDIR and a message that
// says what is wrong, and it never follows a link, never changes a file or
// directory it did not make, and notices a lock file taken away while held.
// Everything here runs in a directory of the test's own, as any user; the
// attacks by another user of the host are in hostile_neighbour_test.cpp.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <fstream>
#include <grp.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/lost_recorder.hpp"
#include "support/temp_directory.hpp"

using namespace advlock::test;

namespace {

mode_t mode_of(const std::string &path) {
    struct stat info {};
    EXPECT_EQ(lstat(path.c_str(), &info), 0) << path;
    return info.st_mode & 07777;
}

std::string contents_of(const std::string &path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

class LockDirectorySafety : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(mkdir(locks_.c_str(), 0755), 0);
        ASSERT_EQ(chmod(locks_.c_str(), 0755), 0);
    }

    // The status of opening a session on url, and on success the session.
    advlock_status open(const std::string &url, Session *out = nullptr) {
        advlock_session *session = nullptr;
        const advlock_status status = advlock_session_open(&session, url.c_str(), nullptr);
        message_ = advlock_error_last()->message;
        if (out) out->reset(session);
        else advlock_session_free(session);
        return status;
    }
    advlock_status try_lock(const Session &session, const advlock_key &key) {
        advlock_lock *lock = nullptr;
        const advlock_status status = advlock_session_try_lock(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE);
        message_ = advlock_error_last()->message;
        advlock_lock_free(lock);
        return status;
    }

    TempDirectory scratch_{"advlock-dir-safety"};
    const std::string top_ = scratch_.path();
    const std::string locks_ = top_ + "/locks";
    std::string message_;
};

// A session on url whose lost callback records into lost.
Session open_watched(const std::string &url, LostRecorder &lost) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.on_lost = &LostRecorder::callback;
    options.on_lost_payload = &lost;
    advlock_session *raw = nullptr;
    EXPECT_EQ(advlock_session_open(&raw, url.c_str(), &options), ADVLOCK_OK) << advlock_error_last()->message;
    return Session(raw);
}

}  // namespace

TEST_F(LockDirectorySafety, ASymlinkInPlaceOfALockFileIsRefusedAndItsTargetUntouched) {
    const std::string victim = top_ + "/root-only";
    std::ofstream(victim) << "secret\n";
    ASSERT_EQ(chmod(victim.c_str(), 0600), 0);
    ASSERT_EQ(symlink(victim.c_str(), (locks_ + "/100:1.lock").c_str()), 0);
    Session session;
    ASSERT_EQ(open("local:" + locks_, &session), ADVLOCK_OK) << message_;
    EXPECT_EQ(try_lock(session, advlock_key_pair(100, 1)), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("is a symbolic link to '" + victim + "'"), std::string::npos) << message_;
    EXPECT_EQ(mode_of(victim), 0600u) << "the link's target keeps its mode";
    EXPECT_EQ(contents_of(victim), "secret\n");
    // A dangling link is no way around it either: advlock does not create its target.
    ASSERT_EQ(symlink((top_ + "/planted").c_str(), (locks_ + "/100:2.lock").c_str()), 0);
    EXPECT_EQ(try_lock(session, advlock_key_pair(100, 2)), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(access((top_ + "/planted").c_str(), F_OK), 0);
}

TEST_F(LockDirectorySafety, ASymlinkedLockDirectoryIsRefused) {
    const std::string link = top_ + "/link-to-locks";
    ASSERT_EQ(symlink(locks_.c_str(), link.c_str()), 0);
    EXPECT_EQ(open("local:" + link), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("is a symbolic link"), std::string::npos) << message_;
}

TEST_F(LockDirectorySafety, WhatIsNotAPlainFileIsNeverLocked) {
    Session session;
    ASSERT_EQ(open("local:" + locks_, &session), ADVLOCK_OK) << message_;
    ASSERT_EQ(mkdir((locks_ + "/1:1.lock").c_str(), 0755), 0);
    EXPECT_EQ(try_lock(session, advlock_key_pair(1, 1)), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("is a directory"), std::string::npos) << message_;
    ASSERT_EQ(mkfifo((locks_ + "/1:2.lock").c_str(), 0644), 0);
    EXPECT_EQ(try_lock(session, advlock_key_pair(1, 2)), ADVLOCK_EUNSAFEDIR) << "and opening the pipe did not block";
    EXPECT_NE(message_.find("is a named pipe"), std::string::npos) << message_;
    // A hard link may be another file of the host linked in.
    const std::string other = top_ + "/some-other-file";
    std::ofstream(other) << "x";
    ASSERT_EQ(link(other.c_str(), (locks_ + "/1:3.lock").c_str()), 0);
    EXPECT_EQ(try_lock(session, advlock_key_pair(1, 3)), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("hard links"), std::string::npos) << message_;
}

TEST_F(LockDirectorySafety, DirectoriesOthersCouldChangeAreRefusedAndLeftAsTheyAre) {
    ASSERT_EQ(chmod(locks_.c_str(), 0777), 0);
    EXPECT_EQ(open("local:" + locks_), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("writable by every user"), std::string::npos) << message_;
    EXPECT_NE(message_.find("chmod o-w " + locks_), std::string::npos) << message_;
    EXPECT_EQ(mode_of(locks_), 0777u) << "advlock never changes a directory it did not make";

    ASSERT_EQ(chmod(locks_.c_str(), 0775), 0);
    EXPECT_EQ(open("local:" + locks_), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("writable by the members of the group"), std::string::npos) << message_;
    EXPECT_NE(message_.find("?group="), std::string::npos) << message_;

    // A sticky directory everyone may write is fine only when root owns it, as /tmp.
    ASSERT_EQ(chmod(locks_.c_str(), 01777), 0);
    EXPECT_EQ(open("local:" + locks_), geteuid() == 0 ? ADVLOCK_OK : ADVLOCK_EUNSAFEDIR) << message_;

    // Above the lock directory too: whoever may rename it may swap it.
    ASSERT_EQ(chmod(locks_.c_str(), 0755), 0);
    const std::string below = locks_ + "/inner";
    ASSERT_EQ(mkdir(below.c_str(), 0755), 0);
    ASSERT_EQ(chmod(locks_.c_str(), 0777), 0);
    EXPECT_EQ(open("local:" + below), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("the directory " + locks_ + ", which holds the lock directory"), std::string::npos)
        << message_;
    EXPECT_EQ(advlock_status_is_unsafe_target(ADVLOCK_EUNSAFEDIR), 1);
}

TEST_F(LockDirectorySafety, AGroupDirectoryIsMadeForThatGroupOnlyAndCheckedSo) {
    const gid_t gid = getegid();
    const group *entry = getgrgid(gid);
    ASSERT_NE(entry, nullptr);
    const std::string name = entry->gr_name;
    const std::string shared = top_ + "/batch-locks";
    Session session;
    ASSERT_EQ(open("local:" + shared + "?group=" + name, &session), ADVLOCK_OK) << message_;
    struct stat info {};
    ASSERT_EQ(stat(shared.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 03770u) << "setgid (files stay in the group), sticky, nothing for others";
    EXPECT_EQ(info.st_gid, gid);
    ASSERT_EQ(try_lock(session, advlock_key_pair(7, 7)), ADVLOCK_OK) << message_;
    EXPECT_EQ(mode_of(shared + "/7:7.lock"), 0640u);
    session.reset();

    ASSERT_EQ(chmod(shared.c_str(), 02775), 0);
    EXPECT_EQ(open("local:" + shared + "?group=" + name), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("open to users outside the group"), std::string::npos) << message_;
    ASSERT_EQ(chmod(shared.c_str(), 02770), 0);
    EXPECT_EQ(open("local:" + shared + "?group=" + name), ADVLOCK_OK) << message_;
    // The group named must be the directory's.
    const gid_t other = gid == 0 ? 65534 : 0;
    EXPECT_EQ(open("local:" + shared + "?group=" + std::to_string(other)), ADVLOCK_EUNSAFEDIR);
    EXPECT_NE(message_.find("has the group"), std::string::npos) << message_;

    EXPECT_EQ(open("local:" + shared + "?group=no-such-group-here"), ADVLOCK_EINVAL);
    EXPECT_NE(message_.find("there is no group 'no-such-group-here'"), std::string::npos) << message_;
    EXPECT_EQ(open("local:" + shared + "?owner=me"), ADVLOCK_EINVAL);
    EXPECT_NE(message_.find("unknown parameter 'owner=me'"), std::string::npos) << message_;
}

TEST_F(LockDirectorySafety, LockFilesAdvlockDidNotMakeKeepTheirMode) {
    const std::string existing = locks_ + "/3:3.lock";
    std::ofstream(existing) << "";
    ASSERT_EQ(chmod(existing.c_str(), 0604), 0);
    Session session;
    ASSERT_EQ(open("local:" + locks_, &session), ADVLOCK_OK) << message_;
    ASSERT_EQ(try_lock(session, advlock_key_pair(3, 3)), ADVLOCK_OK) << message_;
    EXPECT_EQ(mode_of(existing), 0604u);
    // The ones it makes get 0644 whatever the umask: every user of the directory may lock them.
    const mode_t before = umask(077);
    EXPECT_EQ(try_lock(session, advlock_key_pair(3, 4)), ADVLOCK_OK) << message_;
    umask(before);
    EXPECT_EQ(mode_of(locks_ + "/3:4.lock"), 0644u);
}

TEST_F(LockDirectorySafety, TheWatchdogNoticesARemovedLockFileWithoutAnyCall) {
    LostRecorder lost;
    Session session = open_watched("local:" + locks_, lost);
    Lock held = take(session, advlock_key_pair(4, 4));
    ASSERT_NE(held, nullptr);
    ASSERT_EQ(unlink((locks_ + "/4:4.lock").c_str()), 0);
    const std::string why = lost.wait();  // no call on the session: the watchdog found out
    EXPECT_NE(why.find("was removed or replaced while held"), std::string::npos) << why;
    EXPECT_EQ(lost.status(), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
}

TEST_F(LockDirectorySafety, TheWatchdogNoticesAReplacedLockFileAndAReplacedDirectory) {
    LostRecorder file_lost, directory_lost;
    Session a = open_watched("local:" + locks_, file_lost);
    Lock held = take(a, advlock_key_pair(5, 5));
    const std::string impostor = locks_ + "/impostor";
    std::ofstream(impostor) << "";
    ASSERT_EQ(rename(impostor.c_str(), (locks_ + "/5:5.lock").c_str()), 0);
    EXPECT_NE(file_lost.wait().find("was removed or replaced"), std::string::npos);

    Session b = open_watched("local:" + locks_, directory_lost);
    Lock other = take(b, advlock_key_pair(5, 6));
    ASSERT_EQ(rename(locks_.c_str(), (locks_ + ".old").c_str()), 0);
    ASSERT_EQ(mkdir(locks_.c_str(), 0755), 0);
    EXPECT_NE(directory_lost.wait().find("the lock directory " + locks_ + " was removed, renamed or replaced"),
              std::string::npos);
    std::system(("rm -rf " + locks_ + ".old").c_str());
}
