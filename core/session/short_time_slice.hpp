// Asks the kernel's scheduler to run the calling thread in short slices, so
// that it runs as soon as it wakes. For a thread that sleeps nearly all the
// time and, woken, works for microseconds: a session's watchdog.
#pragma once

namespace advlock::core {

// Best effort: keeps the thread's policy and nice value, needs no privilege,
// and does nothing where the kernel has no such request (before Linux 6.12,
// SCHED_IDLE threads, other systems).
void request_short_time_slice() noexcept;

}  // namespace advlock::core
