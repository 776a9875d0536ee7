#include "session/watch_loop.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <initializer_list>
#include <pthread.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "error.hpp"
#include "session/short_time_slice.hpp"

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;

// While a user call has the connection, the watchdog does not wait for the
// socket to become readable (the call's answer would wake it each round
// trip); it listens only for the server closing the connection (POLLRDHUP,
// which answers do not raise: the kernel wakes a poll only for the events it
// asked for) and looks again this often; once no call runs, it waits for the
// socket as when idle. So news that comes right after a call (a terminated
// session's FATAL message, well before its close) waits at most one slice,
// and a burst of calls costs the watchdog about two wake-ups per slice, not
// one per round trip. 2 ms made the worst case of bench/loss_detection_bench
// 2.0 ms at p50; 1 ms halves it at no cost the cycle benchmark could tell
// from noise, where 0.5 ms made the cycle about 8 % slower.
constexpr std::chrono::microseconds kCallPollSlice{1000};

// ppoll's timeout: the time left until `when`, zero once it passed.
timespec time_until(Clock::time_point when) {
    const auto left = std::max(Clock::duration::zero(), when - Clock::now());
    const auto whole = std::chrono::duration_cast<std::chrono::seconds>(left);
    return {static_cast<time_t>(whole.count()),
            static_cast<long>(std::chrono::duration_cast<std::chrono::nanoseconds>(left - whole).count())};
}

}  // namespace

bool WatchSignals::open() {
    wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    return wake_fd >= 0;
}

void WatchSignals::stop() noexcept {
    stopping.store(true);
    wake();
}

void WatchSignals::wake() noexcept {
    if (wake_fd >= 0) {
        const std::uint64_t one = 1;
        [[maybe_unused]] const ssize_t written = ::write(wake_fd, &one, sizeof one);
    }
}

void WatchSignals::close() noexcept {
    if (wake_fd >= 0) {
        ::close(wake_fd);
        wake_fd = -1;
    }
}

void WatchdogThread::start(std::function<void()> body) {
    if (!signals_.open()) throw ConnectError("cannot start the session's watchdog: eventfd failed");
    // The watchdog never takes a signal meant for the application: the kernel
    // may deliver a process-directed signal (Ctrl-C, SIGTERM) to any thread
    // that does not block it, and one taken here would leave, for instance,
    // Python's main thread blocked in a lock acquire that only a signal of its
    // own interrupts. Synchronous signals (faults) stay unblocked.
    sigset_t asynchronous, before;
    sigfillset(&asynchronous);
    for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS}) sigdelset(&asynchronous, fault);
    pthread_sigmask(SIG_BLOCK, &asynchronous, &before);  // the new thread inherits this mask
    try {
        thread_ = std::thread([body = std::move(body)] {
            request_short_time_slice();  // heard of a loss as soon as it wakes
            body();
        });
    } catch (...) {
        pthread_sigmask(SIG_SETMASK, &before, nullptr);
        throw;
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    pthread_setname_np(thread_.native_handle(), kWatchdogThreadName);  // what ps, top and gdb show
}

void WatchdogThread::stop() noexcept {
    signals_.stop();
    if (thread_.joinable()) {
        if (thread_.get_id() == std::this_thread::get_id()) {
            thread_.detach();
        } else {
            thread_.join();
        }
    }
    signals_.close();
}

UserCall::UserCall(std::mutex &session_mutex, WatchSignals &signals, LossState &loss)
    : signals_(signals), loss_(loss), lock_(session_mutex) {
    signals_.calls_in_progress.fetch_add(1);
}

UserCall::UserCall(std::unique_lock<std::mutex> locked, WatchSignals &signals, LossState &loss)
    : signals_(signals), loss_(loss), lock_(std::move(locked)) {
    signals_.calls_in_progress.fetch_add(1);
}

UserCall::~UserCall() {
    signals_.last_call_end_ns.store(WatchSignals::now_ns());
    signals_.calls_in_progress.fetch_sub(1);
    lock_.unlock();
    loss_.fire_if_pending();
}

std::int64_t WatchSignals::now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

bool run_watch_loop(WatchSignals &signals, std::mutex &session_mutex, const LossState &loss, const WatchHooks &hooks) {
    Clock::time_point last_heartbeat = Clock::now();
    // The server closed the connection while a user call had it: that call
    // sees it; the socket, which would stay ready, is left out of the polls
    // during calls from then on.
    bool closed_during_a_call = false;
    while (!signals.stopping.load() && !loss.lost()) {
        bool pending = hooks.pending && hooks.pending();
        if (pending) {
            std::unique_lock<std::mutex> lock(session_mutex, std::try_to_lock);
            if (lock.owns_lock() && !signals.stopping.load() && hooks.connected()) {
                hooks.run_pending();
                pending = false;
            }
        }
        const Clock::time_point last_call{Clock::duration(signals.last_call_end_ns.load())};
        const Clock::time_point heartbeat_due = std::max(last_heartbeat, last_call) + hooks.heartbeat_interval;
        const bool call_running = signals.calls_in_progress.load() > 0;

        pollfd watched[2] = {{signals.wake_fd, POLLIN, 0}, {hooks.socket, static_cast<short>(call_running ? POLLRDHUP : POLLIN), 0}};
        const timespec timeout = call_running || pending
                                     ? time_until(std::min(heartbeat_due, Clock::now() + kCallPollSlice))
                                     : time_until(heartbeat_due);
        const int ready = ::ppoll(watched, call_running && closed_during_a_call ? 1 : 2, &timeout, nullptr);
        if (ready < 0 && errno != EINTR) return false;
        if (watched[0].revents) {  // woken: stopping, or just re-evaluate
            std::uint64_t count;
            [[maybe_unused]] const ssize_t drained = ::read(signals.wake_fd, &count, sizeof count);
            continue;
        }
        const bool readable = watched[1].revents != 0;
        if (readable && signals.calls_in_progress.load() > 0) {
            // A call's answer, or a close that call sees: the socket is its own.
            if (call_running) closed_during_a_call = true;
            continue;
        }
        if (call_running && !readable) continue;
        if (!readable && Clock::now() < heartbeat_due) continue;

        std::unique_lock<std::mutex> lock(session_mutex);
        if (signals.stopping.load() || !hooks.connected()) break;
        if (readable) hooks.on_readable();
        // A user call that ended meanwhile proves the connection alive too.
        const Clock::time_point call_end{Clock::duration(signals.last_call_end_ns.load())};
        if (!loss.lost() && Clock::now() >= std::max(last_heartbeat, call_end) + hooks.heartbeat_interval) {
            hooks.heartbeat();
            last_heartbeat = Clock::now();
        }
    }
    return true;
}

}  // namespace advlock::core
