// The command `advlock run` runs while it holds the lock, and everything that
// command starts: the job. advlock must never leave any of it running without
// the lock, so:
//  - The command runs in a process group of its own, and advlock is the
//    subreaper of everything it starts (process_tree.hpp): it sees all of the
//    job, also what a wrapper script without `exec` started.
//  - TERM, INT, HUP and QUIT sent to advlock go to the whole job (the group,
//    and any process that left it) and start the kill grace: what is still
//    running after it gets SIGKILL. USR1 and USR2 go to the command alone:
//    they are messages to a program ("reopen your logs"), and would kill any
//    helper process that does not expect them.
//  - When the command exits but left processes behind (a wrapper's `java &`),
//    advlock keeps the lock until they end too, as flock(1)'s lock stays with
//    every process that inherited its descriptor.
//  - When the lock is lost: SIGTERM to all of the job, SIGKILL after the grace.
//  - When advlock itself dies: the kernel kills the command (PR_SET_PDEATHSIG)
//    and the guard (death_guard.hpp) the rest of its process group.
//  - The command gets the signal dispositions, mask and descriptors advlock
//    inherited (inherited_state.hpp), not advlock's own.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "job/death_guard.hpp"
#include "job/job_environment.hpp"
#include "job/job_terminal.hpp"
#include "signal_relay.hpp"

namespace advlock::cli {

class SupervisedJob {
public:
    // Starts command; grace: from SIGTERM to SIGKILL. Exec failures make the
    // command exit 127 (not found) or 126 (not runnable), as shells do, after
    // one line on stderr. The command gets advlock's environment with
    // `environment` set on top.
    SupervisedJob(const std::vector<std::string> &command, std::chrono::milliseconds grace,
                  const EnvironmentVariables &environment = {});
    // A job still running here (advlock is failing) is killed.
    ~SupervisedJob();
    SupervisedJob(const SupervisedJob &) = delete;
    SupervisedJob &operator=(const SupervisedJob &) = delete;

    // Supervises until the job is over: the command's status (its exit code,
    // or 128 + the signal that ended it). nullopt when interrupt_fd became
    // readable first (the lock was lost).
    std::optional<int> wait(SignalRelay &signals, int interrupt_fd);

    // SIGTERM (and SIGCONT, for a stopped job) to all of the job, SIGKILL to
    // what is left after the grace; returns once nothing of it is left.
    int stop(SignalRelay &signals);

private:
    std::optional<int> supervise(SignalRelay &signals, int interrupt_fd);
    void reap();
    bool over() const;
    void signal_all(int signal);
    void start_grace();

    std::string name_;
    std::chrono::milliseconds grace_;
    pid_t pid_ = -1;  // the command, and the job's process group
    std::optional<int> status_;
    std::optional<std::chrono::steady_clock::time_point> kill_at_;
    bool killing_ = false;
    bool told_of_leftovers_ = false;
    bool finished_ = false;
    DeathGuard guard_;
    JobTerminal terminal_;
};

}  // namespace advlock::cli
