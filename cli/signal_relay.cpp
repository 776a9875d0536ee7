#include "signal_relay.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace advlock::cli {

namespace {

int relay_pipe[2] = {-1, -1};
constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGCHLD};

void on_signal(int signal, siginfo_t *info, void *) {
    const int saved_errno = errno;
    // SI_USER / SI_QUEUE (<= 0): another process sent it with kill(2).
    const SignalEvent event{signal, info && info->si_code <= 0};
    [[maybe_unused]] const ssize_t written = ::write(relay_pipe[1], &event, sizeof event);
    errno = saved_errno;
}

}  // namespace

SignalRelay::SignalRelay() {
    if (::pipe2(relay_pipe, O_CLOEXEC | O_NONBLOCK) != 0) relay_pipe[0] = relay_pipe[1] = -1;
    struct sigaction action {};
    action.sa_sigaction = &on_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (const int signal : kSignals) sigaction(signal, &action, nullptr);
}

SignalRelay::~SignalRelay() {
    for (const int signal : kSignals) std::signal(signal, SIG_DFL);
    ::close(relay_pipe[0]);
    ::close(relay_pipe[1]);
}

int SignalRelay::fd() const { return relay_pipe[0]; }

bool SignalRelay::next(SignalEvent &event) { return ::read(relay_pipe[0], &event, sizeof event) == sizeof event; }

}  // namespace advlock::cli
