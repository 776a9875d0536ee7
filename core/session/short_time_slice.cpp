#include "session/short_time_slice.hpp"

#include <cstdint>
#include <sys/syscall.h>
#include <unistd.h>

namespace advlock::core {

namespace {

#if defined(__linux__) && defined(SYS_sched_getattr) && defined(SYS_sched_setattr)

// struct sched_attr of sched_setattr(2) (glibc declares it only from 2.41).
struct SchedAttr {
    std::uint32_t size;
    std::uint32_t sched_policy;
    std::uint64_t sched_flags;
    std::int32_t sched_nice;
    std::uint32_t sched_priority;
    std::uint64_t sched_runtime;
    std::uint64_t sched_deadline;
    std::uint64_t sched_period;
    std::uint32_t sched_util_min;
    std::uint32_t sched_util_max;
};

constexpr std::uint32_t kSchedOther = 0;
constexpr std::uint32_t kSchedBatch = 3;

// The shortest slice the kernel grants (it clamps to 0.1-100 ms).
constexpr std::uint64_t kSliceNs = 100'000;

#endif

}  // namespace

// Why: a thread woken after a long sleep runs only once the scheduler lets
// it preempt what runs; with Linux's EEVDF scheduler and the default slice,
// 1-2 % of wake-ups waited 3-4 ms. That was the p99 of the "job at work" row
// of bench/loss_detection_bench (a session terminated 20 ms after the job's
// last call): 3.9-4.4 ms, against 0.6 ms with this. A short slice
// (sched_runtime, Linux 6.12 on) lets a woken thread preempt at once; the
// watchdog works for microseconds per wake-up, so it gives up nothing, and
// the lock cycle's benchmark showed no cost.
void request_short_time_slice() noexcept {
#if defined(__linux__) && defined(SYS_sched_getattr) && defined(SYS_sched_setattr)
    SchedAttr attr{};
    if (::syscall(SYS_sched_getattr, 0, &attr, sizeof attr, 0) != 0) return;
    if (attr.sched_policy != kSchedOther && attr.sched_policy != kSchedBatch) return;
    attr.size = sizeof attr;
    attr.sched_flags = 0;
    attr.sched_runtime = kSliceNs;
    [[maybe_unused]] const long refused = ::syscall(SYS_sched_setattr, 0, &attr, 0);
#endif
}

}  // namespace advlock::core
