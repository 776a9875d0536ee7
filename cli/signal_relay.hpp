// Signals that reach advlock while it supervises a command or holds a lock
// arrive here as events on a pipe, so the main loop can poll for them together
// with the child's exit and the lost-lock notice.
#pragma once

#include <csignal>

namespace advlock::cli {

struct SignalEvent {
    int signal;
    bool from_process;  // sent by kill(2) (forward it); false: from the terminal or kernel
};

class SignalRelay {
public:
    // Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD.
    SignalRelay();
    ~SignalRelay();
    SignalRelay(const SignalRelay &) = delete;
    SignalRelay &operator=(const SignalRelay &) = delete;

    int fd() const;                 // readable when events are waiting
    bool next(SignalEvent &event);  // false when none is waiting
};

}  // namespace advlock::cli
