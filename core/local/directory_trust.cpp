#include "local/directory_trust.hpp"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "local/file_owner.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

bool is_root_sticky(const struct stat &info) { return info.st_uid == 0 && (info.st_mode & S_ISVTX); }

bool owned_by_root_or_me(const struct stat &info) { return info.st_uid == 0 || info.st_uid == ::geteuid(); }

// Where the kernel says fd is (symlinks above it resolved), for messages.
std::string real_path(int fd, const std::string &fallback) {
    char target[PATH_MAX];
    const std::string link = "/proc/self/fd/" + std::to_string(fd);
    const ssize_t length = ::readlink(link.c_str(), target, sizeof target - 1);
    if (length <= 0) return fallback;
    return std::string(target, static_cast<std::size_t>(length));
}

std::string parent_of(const std::string &path) {
    const std::size_t slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

void check_lock_directory(const struct stat &info, const std::string &path, const LocalUrl &url) {
    const std::string where = "the lock directory " + path;
    if (!owned_by_root_or_me(info)) {
        throw UnsafeLockDirectory(
            where + " belongs to " + user_text(info.st_uid) + ", not to root or to you: its owner could remove or replace every lock file in it. If that user did not make it on "
            "purpose, remove it (rm -r " + path + ", as root) and advlock makes a safe one; or give a directory "
            "of your own: local:/DIR");
    }
    if ((info.st_mode & S_IWOTH) && !is_root_sticky(info)) {
        throw UnsafeLockDirectory(
            where + " (" + mode_text(info.st_mode) + ", owner " + user_text(info.st_uid) +
            ") is writable by every user without being a root-owned sticky directory like /tmp: anyone could "
            "remove or replace its lock files. chmod o-w " + path +
            ", or for a directory every user shares, as root: chown root " + path + " && chmod 1777 " + path);
    }
    if (url.group) {
        if (info.st_gid != *url.group) {
            throw UnsafeLockDirectory(where + " has the group " + group_text(info.st_gid) + ", not " +
                                      group_text(*url.group) + " as the URL says (group=" + url.group_name +
                                      "): chgrp " + url.group_name + " " + path + " && chmod 2770 " + path +
                                      ", or name the directory's own group");
        }
        if (info.st_mode & S_IRWXO) {
            throw UnsafeLockDirectory(where + " (" + mode_text(info.st_mode) + ") is open to users outside the group " +
                                      url.group_name + ", which the URL says shares it alone: chmod o-rwx " + path);
        }
    } else if ((info.st_mode & S_IWGRP) && !is_root_sticky(info)) {
        throw UnsafeLockDirectory(
            where + " (" + mode_text(info.st_mode) + ") is writable by the members of the group " +
            group_text(info.st_gid) + ", who could remove or replace its lock files. If they are trusted to "
            "share these locks, say so: local:" + path + "?group=" + group_name(info.st_gid) +
            "; otherwise chmod g-w " + path);
    }
}

void check_ancestor(const struct stat &info, const std::string &ancestor, const std::string &path,
                    const LocalUrl &url) {
    const std::string where = "the directory " + ancestor + ", which holds the lock directory " + path + ",";
    if (!owned_by_root_or_me(info)) {
        throw UnsafeLockDirectory(where + " belongs to " + user_text(info.st_uid) +
                                  ", not to root or to you: its owner could move the lock directory away and put "
                                  "another in its place. Keep lock directories under directories that only root "
                                  "or you can change");
    }
    if (info.st_mode & S_ISVTX) return;  // others may add entries, not rename ours
    const bool trusted_group = url.group && info.st_gid == *url.group;
    if ((info.st_mode & S_IWOTH) || ((info.st_mode & S_IWGRP) && !trusted_group)) {
        throw UnsafeLockDirectory(where + " (" + mode_text(info.st_mode) +
                                  ") is writable by other users: they could move the lock directory away and put "
                                  "another in its place. chmod go-w " + ancestor + " (or chmod +t " + ancestor +
                                  ")");
    }
}

}  // namespace

void require_trusted_directory(int fd, const std::string &path, const LocalUrl &url) {
    struct stat info {};
    if (::fstat(fd, &info) != 0) throw IoError("cannot inspect the lock directory " + path + ": " + std::strerror(errno));
    // For messages only, which print it (and its ancestors) unquoted: the real
    // path, through links another user may have named, escaped.
    const std::string real = printable(real_path(fd, path), PATH_MAX);
    check_lock_directory(info, real, url);

    // Up through ".." from the directory itself: the real ancestors, whatever
    // symlinks the path went through.
    int current = ::dup(fd);
    struct stat current_info = info;
    std::string ancestor = real;
    while (current >= 0) {
        const int parent = ::openat(current, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        ::close(current);
        struct stat parent_info {};
        if (parent < 0 || ::fstat(parent, &parent_info) != 0) {
            if (parent >= 0) ::close(parent);
            break;  // not even searchable: nothing of ours can be reached through it
        }
        if (parent_info.st_dev == current_info.st_dev && parent_info.st_ino == current_info.st_ino) {
            ::close(parent);
            break;  // "/" is its own parent
        }
        ancestor = parent_of(ancestor);
        try {
            check_ancestor(parent_info, ancestor, real, url);
        } catch (...) {
            ::close(parent);
            throw;
        }
        current = parent;
        current_info = parent_info;
    }
}

}  // namespace advlock::core
