// A lock wait that a signal ends cleanly. Without it, SIGTERM during
// `advlock run --wait 1h` would kill advlock while its backend still waits
// in the server's queue: until the server notices the closed connection,
// that dead wait stays ahead of everyone, and a new start skips for seconds.
// With it, a signal relayed while advlock waits cancels the wait on the
// server (the session's cancel, from a helper thread, repeated until the wait
// has ended: a cancel that comes before the wait begins is not kept), and the
// caller then exits 128 + the signal with no wait and no lock left behind.
#pragma once

#include <atomic>
#include <thread>

#include "advlock.hpp"
#include "exit_codes.hpp"
#include "signal_relay.hpp"

namespace advlock::cli {

class WaitInterrupter {
public:
    WaitInterrupter(SignalRelay &signals, advlock::session &session);
    ~WaitInterrupter();  // stops the helper thread
    WaitInterrupter(const WaitInterrupter &) = delete;
    WaitInterrupter &operator=(const WaitInterrupter &) = delete;

    // The signal that arrived while waiting, or 0.
    int signal() const { return signal_.load(); }

private:
    void watch(SignalRelay &signals, advlock::session &session);

    int stop_fd_ = -1;
    std::atomic<int> signal_{0};
    std::thread thread_;
};

// A signal ended advlock before the command ran: exit 128 + the signal.
CliError interrupted_by(int signal, const std::string &what);

}  // namespace advlock::cli
