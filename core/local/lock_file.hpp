// One lock file of the host-local backend, opened for flock(2): relative to
// the lock directory's descriptor, never through a symbolic link, read-only
// (flock needs no more, and advlock never writes to a lock file), and only if
// it is a regular file with no other names. A file another user made is used
// as it is: advlock changes the mode only of a file it has just made itself.
#pragma once

#include <string>
#include <sys/types.h>

#include "local/local_lock_directory.hpp"

namespace advlock::core {

struct LockFile {
    int fd = -1;
    dev_t device = 0;
    ino_t inode = 0;
    uid_t owner = 0;
};

// Opens name in directory, making it (directory.file_mode()) when missing.
// Throws UnsafeLockDirectory (a symbolic link, not a regular file, hard
// links), PermissionDenied (a file this user may not open, or a directory it
// may not add files to: says who owns it and its mode), IoError.
LockFile open_lock_file(const LockDirectory &directory, const std::string &name);

// Empty while name in directory is still file; else what happened to it, for
// the lost-lock message.
std::string lock_file_problem(const LockDirectory &directory, const std::string &name, const LockFile &file);

}  // namespace advlock::core
