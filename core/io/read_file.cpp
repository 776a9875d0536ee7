#include "io/read_file.hpp"

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor() {
        if (fd_ >= 0) ::close(fd_);
    }
    FileDescriptor(const FileDescriptor &) = delete;
    FileDescriptor &operator=(const FileDescriptor &) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

const char *kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

std::string read_small_file(const std::string &path, const std::string &what, std::size_t max_bytes) {
    const std::string shown = what + " " + quoted(path, 200);
    const auto system_error = [&](const char *doing) {
        return IoError("cannot " + std::string(doing) + " " + shown + ": " + std::strerror(errno));
    };
    // O_NONBLOCK: opening a FIFO must not wait for a writer, nor a device for
    // its carrier; O_NOCTTY: a terminal given as the file must not become ours.
    // What was opened is looked at before a byte is read.
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (file.get() < 0) throw system_error("open");
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw system_error("inspect");
    if (!S_ISREG(info.st_mode)) {
        throw IoError("cannot read " + shown + ": it is " + kind_of(info.st_mode) + "; give a regular file");
    }
    const auto too_large = [&] {
        return IoError("cannot read " + shown + ": it is larger than the " + std::to_string(max_bytes) +
                       " bytes allowed for a " + what);
    };
    if (static_cast<std::size_t>(info.st_size) > max_bytes) throw too_large();
    // Read at most one byte more than allowed, whatever st_size said (a file
    // may grow, /proc files say 0), straight into the string: no big buffer on
    // the stack, which may be a small thread's.
    std::string content(static_cast<std::size_t>(info.st_size) + 1, '\0');
    std::size_t used = 0;
    for (;;) {
        if (used == content.size()) {
            if (content.size() > max_bytes) throw too_large();
            content.resize(std::min(max_bytes + 1, content.size() * 2 + 4096));
        }
        const ssize_t n = ::read(file.get(), &content[used], content.size() - used);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw system_error("read");
        }
        if (n == 0) break;
        used += static_cast<std::size_t>(n);
    }
    if (used > max_bytes) throw too_large();
    content.resize(used);
    return content;
}

}  // namespace advlock::core
