#include "job/job_terminal.hpp"

#include <csignal>
#include <initializer_list>
#include <unistd.h>

namespace advlock::cli {

namespace {

// tcsetpgrp from a process that is not (or no longer) in the foreground
// raises SIGTTOU: blocked around the call, it just succeeds.
void set_foreground(int fd, pid_t group) {
    sigset_t ttou, before;
    sigemptyset(&ttou);
    sigaddset(&ttou, SIGTTOU);
    ::pthread_sigmask(SIG_BLOCK, &ttou, &before);
    ::tcsetpgrp(fd, group);
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

}  // namespace

JobTerminal::JobTerminal() {
    for (const int fd : {STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO}) {
        if (::isatty(fd) && ::tcgetpgrp(fd) == ::getpgrp()) {
            fd_ = fd;
            return;
        }
    }
}

void JobTerminal::give_to(pid_t group) {
    if (fd_ < 0) return;
    group_ = group;
    set_foreground(fd_, group);
}

void JobTerminal::take_back() {
    if (fd_ >= 0 && group_ > 0 && ::tcgetpgrp(fd_) == group_) set_foreground(fd_, ::getpgrp());
}

void JobTerminal::job_stopped() {
    if (fd_ < 0) return;
    take_back();
    ::kill(::getpid(), SIGSTOP);
    // Continued: `fg` gave the terminal back to advlock's group, `bg` did not.
    if (::tcgetpgrp(fd_) == ::getpgrp()) set_foreground(fd_, group_);
    ::kill(-group_, SIGCONT);
}

}  // namespace advlock::cli
