#include "signal_relay.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

#include "job/inherited_state.hpp"

namespace advlock::cli {

namespace {

int relay_pipe[2] = {-1, -1};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD};

void on_signal(int signal) {
    const int saved_errno = errno;
    const SignalEvent event{signal};
    [[maybe_unused]] const ssize_t written = ::write(relay_pipe[1], &event, sizeof event);
    errno = saved_errno;
}

// SIGCHLD is always watched: advlock must reap its job whatever it inherited.
bool relayed(int signal) { return signal == SIGCHLD || !inherited_ignored(signal); }

}  // namespace

SignalRelay::SignalRelay() {
    if (::pipe2(relay_pipe, O_CLOEXEC | O_NONBLOCK) != 0) relay_pipe[0] = relay_pipe[1] = -1;
    struct sigaction action {};
    action.sa_handler = &on_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (const int signal : kSignals) {
        if (relayed(signal)) sigaction(signal, &action, nullptr);
    }
}

SignalRelay::~SignalRelay() {
    for (const int signal : kSignals) {
        if (relayed(signal)) std::signal(signal, inherited_ignored(signal) ? SIG_IGN : SIG_DFL);
    }
    ::close(relay_pipe[0]);
    ::close(relay_pipe[1]);
}

int SignalRelay::fd() const { return relay_pipe[0]; }

bool SignalRelay::next(SignalEvent &event) { return ::read(relay_pipe[0], &event, sizeof event) == sizeof event; }

bool is_termination_request(int signal) {
    return signal == SIGTERM || signal == SIGINT || signal == SIGHUP || signal == SIGQUIT;
}

}  // namespace advlock::cli
