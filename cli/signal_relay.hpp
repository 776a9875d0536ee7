// Signals that reach advlock while it waits for a lock, supervises a job or
// holds a lock arrive here as events on a pipe, so the main loop can poll for
// them together with the job's exit and the lost-lock notice. A signal that
// was ignored when advlock started (nohup) stays ignored: no handler for it.
#pragma once

#include <csignal>

namespace advlock::cli {

struct SignalEvent {
    int signal;
};

class SignalRelay {
public:
    // Installs handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2
    // (those not ignored at start) and SIGCHLD.
    SignalRelay();
    ~SignalRelay();
    SignalRelay(const SignalRelay &) = delete;
    SignalRelay &operator=(const SignalRelay &) = delete;

    int fd() const;                 // readable when events are waiting
    bool next(SignalEvent &event);  // false when none is waiting
};

// Whether a signal asks advlock to stop (INT, TERM, HUP, QUIT).
bool is_termination_request(int signal);

}  // namespace advlock::cli
