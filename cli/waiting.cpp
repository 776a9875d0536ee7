#include "waiting.hpp"

#include <iostream>
#include <unistd.h>

#include "durations.hpp"
#include "wait_interrupter.hpp"

namespace advlock::cli {

namespace {

// One acquisition of the library's: a try (timeout 0) or a wait on the server.
std::optional<advlock::lock> acquire(advlock::session &session, const LockTarget &target, long long timeout_ms,
                                     const LockRequest &request) {
    advlock::lock_options options;
    options.timeout_ms = timeout_ms;
    options.slots = request.slots;
    options.fenced = request.fenced;
    return session.acquire(target.key, request.mode, options);
}

// What the terminal's waiting line says is in the way.
std::string busy_line(advlock::session &session, const LockTarget &target,
                      const std::optional<advlock::registry> &registry, const LockRequest &request) {
    if (request.slots == 0) return holder_line(session, target, registry);
    return "every slot of " + target.label + " is held (" + std::to_string(request.slots) + " slots)";
}

std::optional<advlock::lock> wait_for_lock(advlock::session &session, const LockTarget &target,
                                           const std::optional<advlock::registry> &registry,
                                           std::chrono::milliseconds wait, const LockRequest &request) {
    if (wait.count() <= 0 || !::isatty(STDERR_FILENO)) return acquire(session, target, wait.count(), request);

    // On a terminal: wait on the server in one-second slices, refreshing the line between them.
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now(), until = start + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        const auto slice = std::min<std::chrono::milliseconds>(left, std::chrono::seconds(1));
        std::optional<advlock::lock> lock = acquire(session, target, std::max<long long>(slice.count(), 0), request);
        if (lock || Clock::now() >= until) {
            std::cerr << "\r\033[K" << std::flush;
            return lock;
        }
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
        std::cerr << "\r\033[Kadvlock: waiting " << format_duration(waited) << " of " << format_duration(wait)
                  << ": " << busy_line(session, target, registry, request) << std::flush;
    }
}

}  // namespace

std::optional<advlock::lock> take_lock(advlock::session &session, const LockTarget &target,
                                       const std::optional<advlock::registry> &registry,
                                       std::chrono::milliseconds wait, const LockRequest &request,
                                       SignalRelay &signals) {
    std::optional<advlock::lock> lock;
    int signal = 0;
    if (wait.count() > 0) {
        WaitInterrupter interrupter(signals, session);
        try {
            lock = wait_for_lock(session, target, registry, wait, request);
        } catch (const advlock::canceled &) {
            if (!interrupter.signal()) throw;
        }
        signal = interrupter.signal();
    } else {
        lock = acquire(session, target, 0, request);  // no wait to cancel: no helper thread
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
