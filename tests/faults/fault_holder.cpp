// advlock_fault_holder URL KEY [HEARTBEAT_INTERVAL_MS HEARTBEAT_DEADLINE_MS]
//
// A job for the fault tests to break: it takes KEY and holds it, printing
//   held <backend pid>
// and, when advlock tells it the lock is lost,
//   lost <CLOCK_MONOTONIC nanoseconds> <why>
// then exits with 75. Exits 3 when the lock is held elsewhere, 69 when it
// cannot connect.
#include <advlock.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <unistd.h>

namespace {

std::atomic<bool> lost{false};

long long monotonic_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

void on_lost(const advlock_error *why, void *) {
    std::printf("lost %lld %s\n", monotonic_ns(), why->message);
    std::fflush(stdout);
    lost = true;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) {
        std::fprintf(stderr, "usage: advlock_fault_holder URL KEY [INTERVAL_MS DEADLINE_MS]\n");
        return 64;
    }
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.application_name = "advlock-fault-holder";
    options.on_lost = on_lost;
    if (argc == 5) {
        options.heartbeat_interval_ms = std::atoi(argv[3]);
        options.heartbeat_deadline_ms = std::atoi(argv[4]);
    }
    advlock_target target;
    if (advlock_target_parse(&target, argv[2], ADVLOCK_NUL_TERMINATED) != ADVLOCK_OK) {
        std::fprintf(stderr, "fault_holder: %s\n", advlock_error_last()->message);
        return 64;
    }
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, argv[1], &options) != ADVLOCK_OK) {
        std::fprintf(stderr, "fault_holder: %s\n", advlock_error_last()->message);
        return 69;
    }
    advlock_lock *lock = nullptr;
    const advlock_status status = advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE);
    if (status != ADVLOCK_OK) {
        std::fprintf(stderr, "fault_holder: %s\n", status == ADVLOCK_NOT_ACQUIRED ? "held elsewhere" : advlock_error_last()->message);
        return status == ADVLOCK_NOT_ACQUIRED ? 3 : 69;
    }
    int64_t pid = 0;
    advlock_session_server_id(&pid, session);
    std::printf("held %lld\n", static_cast<long long>(pid));
    std::fflush(stdout);
    while (!lost) usleep(1000);
    advlock_lock_free(lock);
    advlock_session_free(session);
    return 75;
}
