#include "local/file_owner.hpp"

#include <cstdio>
#include <grp.h>
#include <pwd.h>
#include <vector>

#include "error.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

std::string user_name(uid_t uid) {
    struct passwd entry {}, *found = nullptr;
    std::vector<char> buffer(4096);
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->pw_name;
    return std::to_string(uid);
}

std::string user_text(uid_t uid) {
    const std::string name = user_name(uid);
    const std::string number = std::to_string(uid);
    return name == number ? "uid " + number : name + " (uid " + number + ")";
}

std::string group_name(gid_t gid) {
    struct group entry {}, *found = nullptr;
    std::vector<char> buffer(16384);
    if (::getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) == 0 && found) return found->gr_name;
    return std::to_string(gid);
}

std::string group_text(gid_t gid) {
    const std::string name = group_name(gid);
    const std::string number = std::to_string(gid);
    return name == number ? "gid " + number : name + " (gid " + number + ")";
}

std::string mode_text(mode_t mode) {
    char text[16];
    std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
    return std::string("mode ") + text;
}

gid_t group_id(const std::string &name_or_number, const std::string &context) {
    struct group entry {}, *found = nullptr;
    std::vector<char> buffer(16384);
    if (::getgrnam_r(name_or_number.c_str(), &entry, buffer.data(), buffer.size(), &found) == 0 && found) {
        return found->gr_gid;
    }
    if (!name_or_number.empty() && name_or_number.find_first_not_of("0123456789") == std::string::npos &&
        name_or_number.size() < 10) {
        return static_cast<gid_t>(std::stoul(name_or_number));
    }
    throw InvalidArgument(context + ": there is no group " + quoted(name_or_number, 64) +
                          " on this host; give the name or number of the group whose members share the locks");
}

}  // namespace advlock::core
