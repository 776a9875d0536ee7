// Taking the lock with --wait. On a terminal, a live line says what advlock
// waits for, who holds it and for how long; elsewhere (cron) it stays quiet.
#pragma once

#include <chrono>
#include <optional>

#include "advlock.hpp"
#include "lock_target.hpp"

namespace advlock::cli {

std::optional<advlock::lock> take_lock(advlock::session &session, const LockTarget &target,
                                       const std::optional<advlock::registry> &registry,
                                       std::chrono::milliseconds wait, advlock::mode mode);

}  // namespace advlock::cli
