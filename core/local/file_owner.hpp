// Who owns a file, in words an operator can act on: "nobody (uid 65534)",
// "mode 0600". Used by every message about a lock directory or lock file that
// another user made.
#pragma once

#include <string>
#include <sys/stat.h>
#include <sys/types.h>

namespace advlock::core {

// "alice (uid 1000)", or "uid 1000" when the user has no name here.
std::string user_text(uid_t uid);

// "staff (gid 50)", or "gid 50".
std::string group_text(gid_t gid);

// The user's name, or the number as text.
std::string user_name(uid_t uid);

// The group's name, or the number as text.
std::string group_name(gid_t gid);

// "mode 0600"
std::string mode_text(mode_t mode);

// The gid of a group given by name or number. Throws InvalidArgument naming
// what was asked for when there is no such group.
gid_t group_id(const std::string &name_or_number, const std::string &context);

}  // namespace advlock::core
