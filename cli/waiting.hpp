// Taking the lock. With --wait, on a terminal a live line says what advlock
// waits for, who holds it and for how long; elsewhere (cron) it stays quiet.
// A signal relayed while advlock takes the lock (INT, TERM, HUP, QUIT, USR1,
// USR2: the command has not started, so there is no one to pass it to) ends
// the wait on the server and leaves no lock behind: take_lock then throws a
// CliError with exit code 128 + the signal.
#pragma once

#include <chrono>
#include <optional>
#include <vector>

#include "advlock.hpp"
#include "lock_target.hpp"
#include "signal_relay.hpp"

namespace advlock::cli {

// How to take it: the mode, and the library's options for job slots (any one
// free slot of N) and fencing tokens.
struct LockRequest {
    advlock::mode mode = advlock::mode::exclusive;
    unsigned slots = 0;   // 0: the lock itself; N >= 2: any one free slot of N
    bool fenced = false;  // issue a fencing token with the grant
};

std::optional<advlock::lock> take_lock(advlock::session &session, const LockTarget &target,
                                       const std::optional<advlock::registry> &registry,
                                       std::chrono::milliseconds wait, const LockRequest &request,
                                       SignalRelay &signals);

// A set of locks (run --name A --name B), all or nothing: every lock, or
// std::nullopt with none held; signals as take_lock.
std::optional<advlock::lock_set> take_locks(advlock::session &session, const std::vector<LockTarget> &targets,
                                            const std::optional<advlock::registry> &registry,
                                            std::chrono::milliseconds wait, advlock::mode mode, SignalRelay &signals);

}  // namespace advlock::cli
