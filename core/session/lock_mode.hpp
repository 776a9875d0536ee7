#pragma once

namespace advlock::core {

// Shared holders exclude exclusive ones but not each other.
enum class LockMode { Exclusive, Shared };

inline const char *mode_name(LockMode mode) { return mode == LockMode::Shared ? "shared" : "exclusive"; }

}  // namespace advlock::core
