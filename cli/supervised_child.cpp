#include "supervised_child.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exit_codes.hpp"

namespace advlock::cli {

SupervisedChild::SupervisedChild(const std::vector<std::string> &command) {
    pid_ = ::fork();
    if (pid_ < 0) throw CliError(exit_code::unavailable, std::string("cannot start the command: ") + std::strerror(errno));
    if (pid_ == 0) {
        // The child starts with default signal handling whatever advlock installed.
        for (const int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD}) std::signal(signal, SIG_DFL);
        std::vector<char *> argv;
        for (const std::string &arg : command) argv.push_back(const_cast<char *>(arg.c_str()));
        argv.push_back(nullptr);
        ::execvp(argv[0], argv.data());
        const int error = errno;
        std::fprintf(stderr, "advlock: cannot run %s: %s\n", argv[0], std::strerror(error));
        ::_exit(error == ENOENT ? 127 : 126);
    }
}

bool SupervisedChild::drain(SignalRelay &signals) {
    SignalEvent event{};
    while (signals.next(event)) {
        if (event.signal != SIGCHLD && event.from_process) ::kill(pid_, event.signal);
        // A signal from the terminal went to the whole foreground group, the
        // command included: passing it on would deliver it twice.
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return status_.has_value();
}

std::optional<int> SupervisedChild::wait(SignalRelay &signals, int interrupt_fd) {
    while (!drain(signals)) {
        pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        // The timeout only guards against a SIGCHLD lost before the relay existed.
        ::poll(fds, interrupt_fd >= 0 ? 2 : 1, 1000);
        if (interrupt_fd >= 0 && fds[1].revents) {
            if (drain(signals)) return status_;
            return std::nullopt;
        }
    }
    return status_;
}

int SupervisedChild::stop(SignalRelay &signals, std::chrono::milliseconds grace) {
    if (status_) return *status_;
    ::kill(pid_, SIGTERM);
    const auto deadline = std::chrono::steady_clock::now() + grace;
    while (!drain(signals)) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ::kill(pid_, SIGKILL);
            int status = 0;
            ::waitpid(pid_, &status, 0);
            status_ = 128 + SIGKILL;
            break;
        }
        pollfd fd{signals.fd(), POLLIN, 0};
        ::poll(&fd, 1, static_cast<int>(std::min<long long>(left.count(), 100)));
    }
    return *status_;
}

}  // namespace advlock::cli
