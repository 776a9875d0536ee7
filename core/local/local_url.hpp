// What a host-local URL says: "local" / "local:" (the default directory),
// "local:/dir" or "file:/dir", each optionally followed by "?group=NAME" for a
// directory shared only by the members of one group.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

namespace advlock::core {

// The default directory: /run/lock/advlock, shared by every user of the host.
constexpr const char *kDefaultLocalLockDirectory = "/run/lock/advlock";

struct LocalUrl {
    std::string directory;       // absolute, without a trailing slash
    bool is_default = false;     // the shared default directory
    std::optional<gid_t> group;  // ?group=: only this group's members share the directory
    std::string group_name;      // as given, for messages
};

// Whether url names the local backend.
bool is_local_url(const std::string &url);

// Throws InvalidArgument for a malformed URL, a relative directory, an unknown
// parameter or group.
LocalUrl parse_local_url(const std::string &url);

}  // namespace advlock::core
