#include "io/read_file.hpp"

#include <cerrno>
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

}  // namespace

std::string read_small_file(const std::string &path, const std::string &what, std::size_t max_bytes) {
    const std::string shown = what + " " + quoted(path, 200);
    const auto system_error = [&](const char *doing) {
        return IoError("cannot " + std::string(doing) + " " + shown + ": " + std::strerror(errno));
    };
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (file.get() < 0) throw system_error("open");
    struct stat info {};
    if (::fstat(file.get(), &info) != 0) throw system_error("inspect");
    if (S_ISDIR(info.st_mode)) throw IoError("cannot read " + shown + ": it is a directory, not a file");
    if (S_ISREG(info.st_mode) && static_cast<std::size_t>(info.st_size) > max_bytes) {
        throw IoError("cannot read " + shown + ": it is " + std::to_string(info.st_size) +
                      " bytes, more than the " + std::to_string(max_bytes) + " allowed");
    }
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(file.get(), buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw system_error("read");
        }
        if (n == 0) break;
        content.append(buffer, static_cast<std::size_t>(n));
        if (content.size() > max_bytes) {
            throw IoError("cannot read " + shown + ": it is more than the " + std::to_string(max_bytes) +
                          " bytes allowed");
        }
    }
    return content;
}

}  // namespace advlock::core
