#include "job/fork_with_pipe.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "exit_codes.hpp"

namespace advlock::cli {

ForkedChild fork_with_pipe(const char *what, const std::function<void(int read_end)> &child_main) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) {
        throw CliError(exit_code::unavailable, std::string("cannot start ") + what + ": " + std::strerror(errno));
    }
    sigset_t all, before;
    sigfillset(&all);
    ::pthread_sigmask(SIG_BLOCK, &all, &before);
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(ends[1]);
        child_main(ends[0]);
        ::_exit(127);  // not reached
    }
    const int error = errno;
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
    ::close(ends[0]);
    if (pid < 0) {
        ::close(ends[1]);
        throw CliError(exit_code::unavailable, std::string("cannot start ") + what + ": " + std::strerror(error));
    }
    return {pid, ends[1]};
}

}  // namespace advlock::cli
