// Whether another user of the host could replace what the local backend
// locks. flock(2) excludes only holders of the same file; whoever may remove
// or rename a lock file (or the directory holding it) can make two jobs lock
// two different files of one name. So a lock directory must be one that only
// root, the running user, or (when the URL names it) one trusted group can
// change, and so must every directory above it:
//
//  - owned by root or by the running user;
//  - not writable by others, unless it is a root-owned sticky directory
//    (like /tmp: others may add files but not remove or rename anyone else's);
//  - not writable by its group, unless the URL says that group is trusted
//    (?group=NAME, and then others have no access to the lock directory), or it
//    is a root-owned sticky directory.
#pragma once

#include <string>

#include "local/local_url.hpp"

namespace advlock::core {

// fd: the lock directory, opened without following a final symlink. Throws
// UnsafeLockDirectory naming the directory, who owns it, its mode and what to
// do about it.
void require_trusted_directory(int fd, const std::string &path, const LocalUrl &url);

}  // namespace advlock::core
