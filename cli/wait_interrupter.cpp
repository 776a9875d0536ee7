#include "wait_interrupter.hpp"

#include <cstring>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "exit_codes.hpp"

namespace advlock::cli {

namespace {

constexpr int kCancelRepeatMs = 10;

}  // namespace

WaitInterrupter::WaitInterrupter(SignalRelay &signals, advlock::session &session)
    : stop_fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
    thread_ = std::thread([this, &signals, &session] { watch(signals, session); });
}

WaitInterrupter::~WaitInterrupter() {
    const std::uint64_t one = 1;
    [[maybe_unused]] const ssize_t written = ::write(stop_fd_, &one, sizeof one);
    thread_.join();
    ::close(stop_fd_);
}

void WaitInterrupter::watch(SignalRelay &signals, advlock::session &session) {
    for (;;) {
        pollfd fds[2] = {{stop_fd_, POLLIN, 0}, {signals.fd(), POLLIN, 0}};
        const bool interrupted = signal_.load() != 0;
        ::poll(fds, interrupted ? 1 : 2, interrupted ? kCancelRepeatMs : -1);
        if (fds[0].revents) return;
        SignalEvent event{};
        while (!interrupted && signals.next(event)) {
            if (event.signal != SIGCHLD && signal_.load() == 0) signal_.store(event.signal);
        }
        if (signal_.load() != 0) {
            try {
                session.cancel();
            } catch (const advlock::error &) {  // the session ended meanwhile: nothing left to cancel
            }
        }
    }
}

CliError interrupted_by(int signal, const std::string &what) {
    const char *name = ::sigabbrev_np(signal);
    return CliError(128 + signal, "SIG" + (name ? std::string(name) : std::to_string(signal)) + " " + what);
}

}  // namespace advlock::cli
