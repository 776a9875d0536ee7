#include "job/supervised_job.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <iostream>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exit_codes.hpp"
#include "job/fork_with_pipe.hpp"
#include "job/inherited_state.hpp"
#include "job/process_tree.hpp"

namespace advlock::cli {

namespace {

using Clock = std::chrono::steady_clock;

// After SIGKILL, how often to look again (and kill what was forked meanwhile).
constexpr std::chrono::milliseconds kKillRepeat{100};

void write_text(const char *text) {
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, text, std::strlen(text));
}

// The command's life between fork and exec: only async-signal-safe calls.
[[noreturn]] void exec_command(char *const *argv, char *const *envp, int go, pid_t parent) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (::getppid() != parent) ::_exit(126);  // advlock died before the line above
    char byte = 0;
    ssize_t got;
    do {
        got = ::read(go, &byte, 1);  // until advlock has set up the group, its guard and the terminal
    } while (got < 0 && errno == EINTR);
    if (got != 1) ::_exit(126);
    restore_inherited_signals();
    ::execvpe(argv[0], argv, envp);
    const int error = errno;
    write_text("advlock: cannot run ");
    write_text(argv[0]);
    write_text(": ");
    write_text(std::strerror(error));
    write_text("\n");
    ::_exit(error == ENOENT ? 127 : 126);
}

}  // namespace

SupervisedJob::SupervisedJob(const std::vector<std::string> &command, std::chrono::milliseconds grace,
                             const EnvironmentVariables &environment)
    : name_(command.at(0)), grace_(grace) {
    become_subreaper();
    close_own_descriptors_on_exec();
    std::vector<char *> argv;
    for (const std::string &arg : command) argv.push_back(const_cast<char *>(arg.c_str()));
    argv.push_back(nullptr);
    const std::vector<std::string> env = environment_with(environment);
    std::vector<char *> envp;
    for (const std::string &variable : env) envp.push_back(const_cast<char *>(variable.c_str()));
    envp.push_back(nullptr);
    const pid_t parent = ::getpid();
    const ForkedChild child = fork_with_pipe(
        "the command", [&argv, &envp, parent](int go) { exec_command(argv.data(), envp.data(), go, parent); });
    pid_ = child.pid;
    const int go = child.write_end;
    ::setpgid(pid_, pid_);  // also from here: the group exists before the guard joins it
    try {
        guard_.start(pid_);
    } catch (...) {
        ::close(go);  // the command sees no "go" and exits without running
        throw;
    }
    terminal_.give_to(pid_);
    const char start = 'g';
    [[maybe_unused]] const ssize_t written = ::write(go, &start, 1);
    ::close(go);
}

SupervisedJob::~SupervisedJob() {
    if (!finished_) signal_all(SIGKILL);
    terminal_.take_back();
}

void SupervisedJob::signal_all(int signal) {
    // The group while the command or the guard keeps its id from being reused.
    if (!status_ || guard_.pid() > 0) ::kill(-pid_, signal);
    for (const pid_t process : descendants_of(::getpid())) {
        if (process != guard_.pid()) ::kill(process, signal);
    }
}

void SupervisedJob::reap() {
    for (;;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG | (terminal_.active() ? WUNTRACED : 0));
        if (pid <= 0) return;
        if (WIFSTOPPED(status)) {
            if (pid == pid_) terminal_.job_stopped();
            continue;
        }
        if (pid == pid_) {
            status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        } else if (pid == guard_.pid()) {
            const bool group_gone = WIFEXITED(status) && WEXITSTATUS(status) == DeathGuard::kFoundNoGroup;
            guard_.died(/*replace=*/!killing_ && !group_gone && !over());
        }
        // Anything else is a process of the job re-parented to advlock: reaped, gone.
    }
}

bool SupervisedJob::over() const {
    if (!status_) return false;
    for (const pid_t child : children_of(::getpid())) {
        if (child != guard_.pid()) return false;
    }
    return true;
}

void SupervisedJob::start_grace() {
    if (!kill_at_) kill_at_ = Clock::now() + grace_;
}

std::optional<int> SupervisedJob::wait(SignalRelay &signals, int interrupt_fd) {
    return supervise(signals, interrupt_fd);
}

int SupervisedJob::stop(SignalRelay &signals) {
    if (!finished_) {
        start_grace();
        signal_all(SIGTERM);
        signal_all(SIGCONT);  // a stopped process acts on SIGTERM only once continued
    }
    return supervise(signals, -1).value_or(128 + SIGKILL);
}

std::optional<int> SupervisedJob::supervise(SignalRelay &signals, int interrupt_fd) {
    while (!finished_) {
        SignalEvent event{};
        while (signals.next(event)) {
            if (event.signal == SIGCHLD) continue;
            if (is_termination_request(event.signal)) {  // to all of the job, as a terminal's Ctrl-C goes to all
                signal_all(event.signal);
                start_grace();
            } else if (!status_) {  // USR1, USR2: a message to the program, not to every process
                ::kill(pid_, event.signal);
            }
        }
        reap();
        if (over()) {
            finished_ = true;
            guard_.dismiss();
            terminal_.take_back();
            break;
        }
        if (status_ && !told_of_leftovers_ && !kill_at_) {
            told_of_leftovers_ = true;
            std::string left;
            for (const pid_t process : descendants_of(::getpid())) {
                if (process != guard_.pid()) left += (left.empty() ? "" : ", ") + describe_process(process);
            }
            std::cerr << "advlock: " << name_ << " exited (" << *status_ << ") but left processes running (" << left
                      << "); the lock stays held until they end" << std::endl;
        }
        const Clock::time_point now = Clock::now();
        if (kill_at_ && now >= *kill_at_) {
            killing_ = true;
            signal_all(SIGKILL);
            kill_at_ = now + kKillRepeat;
        }
        int timeout = 1000;  // guards against a SIGCHLD lost before the relay existed
        if (kill_at_) {
            timeout = static_cast<int>(std::clamp<long long>(
                std::chrono::duration_cast<std::chrono::milliseconds>(*kill_at_ - now).count() + 1, 0, 1000));
        }
        pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {interrupt_fd, POLLIN, 0}};
        ::poll(fds, interrupt_fd >= 0 ? 2 : 1, timeout);
        if (interrupt_fd >= 0 && fds[1].revents) {
            reap();
            if (!over()) return std::nullopt;
        }
    }
    return status_;
}

}  // namespace advlock::cli
