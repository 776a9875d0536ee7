// The command `advlock run` runs while it holds the lock: started with
// fork/exec, given the signals sent to advlock, ended with SIGTERM and then
// SIGKILL when the lock is lost.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

#include "signal_relay.hpp"

namespace advlock::cli {

class SupervisedChild {
public:
    // Exec failures make the child exit 127 (not found) or 126 (not runnable),
    // as shells do, after one line on stderr.
    explicit SupervisedChild(const std::vector<std::string> &command);

    // Waits for the child's exit, forwarding signals, until it exits (its
    // status: the exit code, or 128 + the signal) or interrupt_fd becomes
    // readable (nullopt).
    std::optional<int> wait(SignalRelay &signals, int interrupt_fd);

    // SIGTERM, up to grace for the child to exit, then SIGKILL; its status.
    int stop(SignalRelay &signals, std::chrono::milliseconds grace);

private:
    // Handles waiting signal events; true once the child was reaped.
    bool drain(SignalRelay &signals);

    pid_t pid_ = -1;
    std::optional<int> status_;
};

}  // namespace advlock::cli
