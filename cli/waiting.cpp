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

// The same for a set of locks, all or nothing.
std::optional<advlock::lock_set> acquire_all(advlock::session &session, const std::vector<LockTarget> &targets,
                                             long long timeout_ms, advlock::mode mode) {
    advlock::lock_options options;
    options.timeout_ms = timeout_ms;
    std::vector<advlock::key> keys;
    for (const LockTarget &target : targets) keys.push_back(target.key);
    return session.acquire_all(keys, mode, options);
}

// What the terminal's waiting line says is in the way.
std::string busy_line(advlock::session &session, const LockTarget &target,
                      const std::optional<advlock::registry> &registry, const LockRequest &request) {
    if (request.slots == 0) return holder_line(session, target, registry);
    return "every slot of " + target.label + " is held (" + std::to_string(request.slots) + " slots)";
}

// Waiting for `Held` (a lock, or a set's locks) with attempt(timeout_ms).
// On a terminal: wait on the server in one-second slices, refreshing the line
// (busy()) between them.
template <typename Attempt, typename Busy>
auto wait_for(std::chrono::milliseconds wait, Attempt attempt, Busy busy) -> decltype(attempt(0LL)) {
    if (wait.count() <= 0 || !::isatty(STDERR_FILENO)) return attempt(wait.count());
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now(), until = start + wait;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now());
        const auto slice = std::min<std::chrono::milliseconds>(left, std::chrono::seconds(1));
        auto held = attempt(std::max<long long>(slice.count(), 0));
        if (held || Clock::now() >= until) {
            std::cerr << "\r\033[K" << std::flush;
            return held;
        }
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
        std::cerr << "\r\033[Kadvlock: waiting " << format_duration(waited) << " of " << format_duration(wait)
                  << ": " << busy() << std::flush;
    }
}

// The relayed signals around a wait (see waiting.hpp): a signal during it
// cancels it, and what was granted meanwhile is given back.
template <typename Attempt, typename Busy>
auto take_with(advlock::session &session, std::chrono::milliseconds wait, SignalRelay &signals,
               const std::string &label, Attempt attempt, Busy busy) -> decltype(attempt(0LL)) {
    decltype(attempt(0LL)) held;
    int signal = 0;
    if (wait.count() > 0) {
        WaitInterrupter interrupter(signals, session);
        try {
            held = wait_for(wait, attempt, busy);
        } catch (const advlock::canceled &) {
            if (!interrupter.signal()) throw;
        }
        signal = interrupter.signal();
    } else {
        held = attempt(0);  // no wait to cancel: no helper thread
    }
    for (SignalEvent event{}; signals.next(event);) {
        if (event.signal != SIGCHLD && !signal) signal = event.signal;
    }
    if (signal) {
        held.reset();  // granted just as the signal came: released, the command does not run
        throw interrupted_by(signal, "while waiting for the lock on " + label + ": the wait was cancelled, nothing was run");
    }
    return held;
}

}  // namespace

std::optional<advlock::lock> take_lock(advlock::session &session, const LockTarget &target,
                                       const std::optional<advlock::registry> &registry,
                                       std::chrono::milliseconds wait, const LockRequest &request,
                                       SignalRelay &signals) {
    return take_with(
        session, wait, signals, target.label,
        [&](long long timeout_ms) { return acquire(session, target, timeout_ms, request); },
        [&] { return busy_line(session, target, registry, request); });
}

std::optional<advlock::lock_set> take_locks(advlock::session &session, const std::vector<LockTarget> &targets,
                                            const std::optional<advlock::registry> &registry,
                                            std::chrono::milliseconds wait, advlock::mode mode, SignalRelay &signals) {
    return take_with(
        session, wait, signals, set_label(targets),
        [&](long long timeout_ms) { return acquire_all(session, targets, timeout_ms, mode); },
        [&] { return set_holder_lines(session, targets, registry).front(); });
}

}  // namespace advlock::cli
