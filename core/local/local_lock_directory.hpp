// Where the host-local backend keeps its lock files: one file per key in a
// directory ("local" / "local:" for the default, "local:/dir" or "file:/dir").
// Lock files are never deleted: deleting one while a process holds or waits
// for it would let two processes lock two different files of the same name.
#pragma once

#include <optional>
#include <string>

#include "keys/key.hpp"

namespace advlock::core {

// The default directory: /run/lock/advlock, shared by every user of the host.
constexpr const char *kDefaultLocalLockDirectory = "/run/lock/advlock";

// Whether url names the local backend.
bool is_local_url(const std::string &url);

// The directory a local URL names (made if missing). Throws InvalidArgument
// for a malformed URL, IoError when the directory cannot be made.
std::string local_lock_directory(const std::string &url);

// "<directory>/<key text>.lock"
std::string lock_file_path(const std::string &directory, const Key &key);

// The key a lock file name stands for ("100:1.lock"), if it is one.
std::optional<Key> key_of_lock_file(const std::string &file_name);

}  // namespace advlock::core
