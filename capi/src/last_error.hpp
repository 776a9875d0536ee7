// The thread-local last error behind advlock_error_last().
#pragma once

#include <string>

#include "advlock.h"

namespace advlock::capi {

// Records the error for this thread and returns its status.
advlock_status set_last_error(advlock_status status, const std::string &message,
                              const std::string &sqlstate = {}) noexcept;

}  // namespace advlock::capi
