#include "waiting.hpp"

#include <iostream>
#include <unistd.h>

#include "durations.hpp"
#include "wait_interrupter.hpp"

namespace advlock::cli {

namespace {

std::optional<advlock::lock> wait_for_lock(advlock::session &session, const LockTarget &target,
                                           const std::optional<advlock::registry> &registry,
                                           std::chrono::milliseconds wait, advlock::mode mode) {
    if (wait.count() <= 0 || !::isatty(STDERR_FILENO)) return session.lock_within(target.key, wait.count(), mode);

    // On a terminal: wait on the server in one-second slices, refreshing the line between them.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now(), until = start + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        const auto slice = std::min<std::chrono::milliseconds>(left, std::chrono::seconds(1));
        std::optional<advlock::lock> lock = session.lock_within(target.key, std::max<long long>(slice.count(), 0), mode);
        if (lock || Clock::now() >= until) {
            std::cerr << "\r\033[K" << std::flush;
            return lock;
        }
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
        std::cerr << "\r\033[Kadvlock: waiting " << format_duration(waited) << " of " << format_duration(wait)
                  << ": " << holder_line(session, target, registry) << std::flush;
    }
}

}  // namespace

std::optional<advlock::lock> take_lock(advlock::session &session, const LockTarget &target,
                                       const std::optional<advlock::registry> &registry,
                                       std::chrono::milliseconds wait, advlock::mode mode, SignalRelay &signals) {
    std::optional<advlock::lock> lock;
    int signal = 0;
    if (wait.count() > 0) {
        WaitInterrupter interrupter(signals, session);
        try {
            lock = wait_for_lock(session, target, registry, wait, mode);
        } catch (const advlock::canceled &) {
            if (!interrupter.signal()) throw;
        }
        signal = interrupter.signal();
    } else {
        lock = session.try_lock(target.key, mode);  // no wait to cancel: no helper thread
    }
    for (SignalEvent event{}; signals.next(event);) {
        if (event.signal != SIGCHLD && !signal) signal = event.signal;
    }
    if (signal) {
        lock.reset();  // granted just as the signal came: released, the command does not run
        throw interrupted_by(signal, "while waiting for the lock on " + target.label +
                                         ": the wait was cancelled, nothing was run");
    }
    return lock;
}

}  // namespace advlock::cli
