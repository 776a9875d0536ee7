#include "job/death_guard.hpp"

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "job/fork_with_pipe.hpp"

namespace advlock::cli {

namespace {

// The guard's whole life, in the child after fork: only async-signal-safe
// calls (advlock has other threads).
[[noreturn]] void guard(int read_end, pid_t group) {
    if (::setpgid(0, group) != 0) ::_exit(DeathGuard::kFoundNoGroup);
    ::prctl(PR_SET_NAME, "advlock-guard", 0, 0, 0);
    for (int signal = 1; signal < 65; ++signal) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        ::sigaction(signal, &ignore, nullptr);
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // Hold nothing of advlock's (a lock file descriptor kept open here would
    // keep its flock after advlock released it): the pipe becomes stdin.
    ::dup2(read_end, STDIN_FILENO);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    if (::syscall(SYS_close_range, 3U, ~0U, 0U) != 0) {
        for (int fd = 3; fd < 65536; ++fd) ::close(fd);
    }
    char byte = 0;
    ssize_t got;
    do {
        got = ::read(STDIN_FILENO, &byte, 1);
    } while (got < 0 && errno == EINTR);
    if (got == 0) ::kill(-group, SIGKILL);  // advlock is gone: so is the lock
    ::_exit(0);
}

}  // namespace

DeathGuard::~DeathGuard() {
    // Still running here means advlock is leaving while the job runs (an
    // error on the way out): closing the pipe makes the guard stop the job.
    if (pipe_ >= 0) ::close(pipe_);
}

void DeathGuard::start(pid_t job_group) {
    group_ = job_group;
    const ForkedChild child =
        fork_with_pipe("the job's guard", [job_group](int read_end) { guard(read_end, job_group); });
    ::setpgid(child.pid, job_group);  // also from here, so it is in the group before the job runs
    pid_ = child.pid;
    pipe_ = child.write_end;
}

void DeathGuard::died(bool replace) {
    pid_ = -1;
    if (pipe_ < 0) return;
    ::close(pipe_);
    pipe_ = -1;
    if (replace) start(group_);
}

void DeathGuard::dismiss() {
    if (pipe_ < 0) return;
    const char quit = 'q';
    [[maybe_unused]] const ssize_t written = ::write(pipe_, &quit, 1);
    ::close(pipe_);
    pipe_ = -1;
    if (pid_ > 0) {
        int status = 0;
        while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
        pid_ = -1;
    }
}

}  // namespace advlock::cli
