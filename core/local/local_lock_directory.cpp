#include "local/local_lock_directory.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "local/directory_trust.hpp"
#include "local/file_owner.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

// Makes every missing directory of path, as mkdir -p does; true when the last
// one was made here (so its mode and group are ours to set). Not
// std::filesystem::create_directories: it makes each directory 0777 less the
// umask, so under umask 0 (a daemon's) the parents would be writable by others
// (then refused as unsafe) and the lock directory itself open to everyone
// until its mode is set; here the parents are 0755 and it is made 0700.
bool make_missing(const std::string &path) {
    for (std::size_t slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
        const std::string part = path.substr(0, slash);
        if (::mkdir(part.c_str(), 0755) != 0 && errno != EEXIST) {
            throw IoError("cannot make the directory " + quoted(part, 200) + " for the lock directory: " +
                          std::strerror(errno));
        }
    }
    if (::mkdir(path.c_str(), 0700) == 0) return true;
    if (errno != EEXIST) {
        throw IoError("cannot make the lock directory " + quoted(path, 200) + ": " + std::strerror(errno));
    }
    return false;
}

// Why path could not be opened as a directory, naming what is there instead,
// or who may use it.
[[noreturn]] void refuse_non_directory(const std::string &path, int error) {
    struct stat there {};
    if (::lstat(path.c_str(), &there) == 0 && (error == ELOOP || error == ENOTDIR)) {
        const std::string what = S_ISLNK(there.st_mode) ? "a symbolic link" : "not a directory";
        throw UnsafeLockDirectory("the lock directory " + path + " is " + what + " (it belongs to " +
                                  user_text(there.st_uid) +
                                  "): advlock never follows a link there or uses something else in its place, as "
                                  "another user could point it anywhere. Remove it, or give the real directory: "
                                  "local:/DIR");
    }
    if (error == EACCES && ::stat(path.c_str(), &there) == 0) {
        throw PermissionDenied("the lock directory " + path + " (owner " + user_text(there.st_uid) + ", group " +
                               group_text(there.st_gid) + ", " + mode_text(there.st_mode) + ") does not let you (" +
                               user_text(::geteuid()) + ") in: a directory kept for one group's jobs; ask to be "
                               "added to that group, or use a lock directory of your own (local:/DIR)");
    }
    throw IoError("cannot open the lock directory " + quoted(path, 200) + ": " + std::strerror(error));
}

mode_t new_directory_mode(const LocalUrl &url) {
    if (url.group) return 03770;
    return url.is_default && ::geteuid() == 0 ? 01777 : 0755;
}

void finish_new_directory(int fd, const std::string &path, const LocalUrl &url) {
    struct stat info {};
    if (::fstat(fd, &info) != 0 || info.st_uid != ::geteuid()) return;  // not the one made here: leave it be
    if (url.group && ::fchown(fd, static_cast<uid_t>(-1), *url.group) != 0) {
        throw IoError("cannot give the new lock directory " + path + " to the group " + group_text(*url.group) +
                      ": " + std::strerror(errno) + " (only root and the group's members may)");
    }
    if (::fchmod(fd, new_directory_mode(url)) != 0) {
        throw IoError("cannot set the mode of the new lock directory " + path + ": " + std::strerror(errno));
    }
}

}  // namespace

LockDirectory::LockDirectory(const std::string &url) : url_(parse_local_url(url)) {
    const bool made = make_missing(url_.directory);
    fd_ = ::open(url_.directory.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd_ < 0) refuse_non_directory(url_.directory, errno);
    try {
        if (made) finish_new_directory(fd_, url_.directory, url_);
        require_trusted_directory(fd_, url_.directory, url_);
        struct stat info {};
        ::fstat(fd_, &info);
        device_ = info.st_dev;
        inode_ = info.st_ino;
    } catch (...) {
        ::close(fd_);
        if (made) ::rmdir(url_.directory.c_str());  // leave no half-made directory in anyone's way
        throw;
    }
}

LockDirectory::~LockDirectory() { ::close(fd_); }

bool LockDirectory::still_at_path() const {
    struct stat now {};
    return ::lstat(url_.directory.c_str(), &now) == 0 && now.st_dev == device_ && now.st_ino == inode_;
}

std::string lock_file_name(const Key &key) { return format_key(key) + ".lock"; }

std::optional<Key> key_of_lock_file(const std::string &file_name) {
    constexpr std::string_view kSuffix = ".lock";
    if (file_name.size() <= kSuffix.size() || file_name.substr(file_name.size() - kSuffix.size()) != kSuffix) {
        return std::nullopt;
    }
    const std::string text = file_name.substr(0, file_name.size() - kSuffix.size());
    if (text.rfind("name:", 0) == 0) return std::nullopt;
    try {
        return parse_key(text);
    } catch (const BadKey &) {
        return std::nullopt;
    }
}

}  // namespace advlock::core
