// Where the host-local backend keeps its lock files: one file per key in a
// directory ("local" / "local:" for the default, "local:/dir" or "file:/dir",
// each with an optional "?group=NAME"). The directory is opened once and every
// lock file is opened relative to it, never through a symbolic link.
// Lock files are never deleted: deleting one while a process holds or waits
// for it would let two processes lock two different files of the same name.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

#include "keys/key.hpp"
#include "local/local_url.hpp"

namespace advlock::core {

class LockDirectory {
public:
    // Opens the directory url names, making it when missing: mode 1777 for the
    // shared default when root makes it (as /tmp), 3770 with the group for
    // ?group=NAME (setgid: files stay in the group; sticky: members cannot
    // remove each other's), 0755 otherwise. Never changes the mode or owner of
    // a directory it did not make. Refuses one that another user could change
    // (directory_trust.hpp). Throws InvalidArgument (bad URL),
    // UnsafeLockDirectory, IoError (cannot make or open it).
    explicit LockDirectory(const std::string &url);
    ~LockDirectory();
    LockDirectory(const LockDirectory &) = delete;
    LockDirectory &operator=(const LockDirectory &) = delete;

    int fd() const { return fd_; }
    const std::string &path() const { return url_.directory; }
    // The mode new lock files get: readable by everyone who may use the
    // directory (flock needs only a read-only descriptor), writable by no one.
    mode_t file_mode() const { return url_.group ? 0640 : 0644; }

    // Whether the directory's path still leads to this directory (not removed,
    // renamed or replaced). No exceptions.
    bool still_at_path() const;

private:
    LocalUrl url_;
    int fd_ = -1;
    dev_t device_ = 0;
    ino_t inode_ = 0;
};

// "<key text>.lock"
std::string lock_file_name(const Key &key);

// The key a lock file name stands for ("100:1.lock"), if it is one.
std::optional<Key> key_of_lock_file(const std::string &file_name);

}  // namespace advlock::core
