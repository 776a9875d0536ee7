#include "local/lock_file.hpp"

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

const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISFIFO(mode)) return "a named pipe";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "a special file";
}

std::string link_target(int directory, const std::string &name) {
    char target[PATH_MAX];
    const ssize_t length = ::readlinkat(directory, name.c_str(), target, sizeof target - 1);
    return length > 0 ? std::string(target, static_cast<std::size_t>(length)) : std::string("?");
}

[[noreturn]] void refuse_kind(const LockDirectory &directory, const std::string &name, const struct stat &info) {
    const std::string path = directory.path() + "/" + name;
    const std::string made_by = ", made by " + user_text(info.st_uid);
    const std::string remove = "Remove it (rm " + std::string(S_ISDIR(info.st_mode) ? "-r " : "") + path +
                               ") and advlock makes a proper one";
    if (S_ISLNK(info.st_mode)) {
        throw UnsafeLockDirectory("the lock file " + path + " is a symbolic link to " +
                                  quoted(link_target(directory.fd(), name), 200) + made_by +
                                  ": advlock never follows links in the lock directory, as another user could point "
                                  "one at any file. " + remove);
    }
    throw UnsafeLockDirectory("the lock file " + path + " is " + kind_of(info.st_mode) + made_by +
                              ", not a regular file: advlock cannot lock it (another user may have made it to keep "
                              "this job from running). " + remove);
}

[[noreturn]] void refuse_unopenable(const LockDirectory &directory, const std::string &name, int error) {
    const std::string path = directory.path() + "/" + name;
    struct stat info {};
    const bool exists = ::fstatat(directory.fd(), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0;
    if (exists && !S_ISREG(info.st_mode)) refuse_kind(directory, name, info);
    const std::string me = user_text(::geteuid());
    if (exists && (error == EACCES || error == EPERM)) {
        throw PermissionDenied("cannot open the lock file " + path + ": it belongs to " + user_text(info.st_uid) +
                               " with " + mode_text(info.st_mode) + ", which you (" + me +
                               ") may not read. Another user made it, by mistake or to keep this job from "
                               "running: remove it (as root or its owner) and advlock makes a readable one, or "
                               "use a lock directory of your own (local:/DIR)");
    }
    if (!exists && (error == EACCES || error == EPERM)) {
        struct stat dir {};
        ::fstat(directory.fd(), &dir);
        throw PermissionDenied("cannot make the lock file " + path + ": the lock directory (owner " +
                               user_text(dir.st_uid) + ", " + mode_text(dir.st_mode) + ") does not let you (" + me +
                               ") add files. Use a lock directory you may write to (local:/DIR), or ask its owner "
                               "to make the file");
    }
    throw IoError("cannot open the lock file " + quoted(path, 200) + ": " + std::strerror(error));
}

}  // namespace

LockFile open_lock_file(const LockDirectory &directory, const std::string &name) {
    constexpr int kReadOnly = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
    for (int attempt = 0; attempt < 16; ++attempt) {
        bool made = false;
        int fd = ::openat(directory.fd(), name.c_str(), kReadOnly);
        if (fd < 0 && errno == ENOENT) {
            fd = ::openat(directory.fd(), name.c_str(), kReadOnly | O_CREAT | O_EXCL, directory.file_mode());
            if (fd < 0 && errno == EEXIST) continue;  // made by another process meanwhile: open that one
            made = fd >= 0;
        }
        if (fd < 0) refuse_unopenable(directory, name, errno);
        struct stat info {};
        if (::fstat(fd, &info) != 0) {
            const int error = errno;
            ::close(fd);
            throw IoError("cannot inspect the lock file " + directory.path() + "/" + name + ": " + std::strerror(error));
        }
        if (!S_ISREG(info.st_mode)) {
            ::close(fd);
            refuse_kind(directory, name, info);
        }
        if (info.st_nlink == 0) {  // removed between open and fstat: take the new one
            ::close(fd);
            continue;
        }
        if (info.st_nlink > 1) {
            ::close(fd);
            throw UnsafeLockDirectory("the lock file " + directory.path() + "/" + name + " has " +
                                      std::to_string(info.st_nlink) + " names (hard links), made by " +
                                      user_text(info.st_uid) +
                                      ": it may be another file of the host linked into the lock directory. Remove "
                                      "it and advlock makes a proper one");
        }
        if (made) ::fchmod(fd, directory.file_mode());  // exactly this mode, whatever the umask
        return LockFile{fd, info.st_dev, info.st_ino, info.st_uid};
    }
    throw IoError("cannot open the lock file " + directory.path() + "/" + name +
                  ": it was removed and made again at every attempt; something is deleting lock files");
}

std::string lock_file_problem(const LockDirectory &directory, const std::string &name, const LockFile &file) {
    struct stat now {};
    if (::fstatat(directory.fd(), name.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == file.device &&
        now.st_ino == file.inode) {
        return {};
    }
    std::string why = "the lock file " + directory.path() + "/" + name +
                      " was removed or replaced while held: another process can now lock a new file of that name";
    if (file.owner != ::geteuid()) {
        why += " (the file belonged to " + user_text(file.owner) + ", who may remove it from a shared directory; where other users "
               "cannot be trusted, use a lock directory of one group: local:/DIR?group=NAME)";
    }
    return why;
}

}  // namespace advlock::core
