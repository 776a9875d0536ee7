// The advlock side of both lock-cycle benchmarks (PostgreSQL and MySQL): one
// session, then try_lock + release of one key per iteration, through the C ABI;
// and the same cycle through advlock_session_acquire with options (fencing
// tokens, job slots), to weigh what an option costs against the plain cycle.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>

#include "advlock.h"

namespace advlock::bench {

inline void capi_try_release_cycles(benchmark::State &state, const char *url, std::int64_t key_value) {
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, url, nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    const advlock_target target = advlock_target_of_key(advlock_key_bigint(key_value));
    for (auto _ : state) {
        advlock_lock *lock = nullptr;
        if (advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE) != ADVLOCK_OK ||
            advlock_lock_release(lock) != ADVLOCK_OK) {
            state.SkipWithError(advlock_error_last()->message);
            advlock_lock_free(lock);
            break;
        }
        advlock_lock_free(lock);
    }
    advlock_session_free(session);
}

// As capi_try_release_cycles, each try taken by advlock_session_acquire with
// `options` (a try: timeout_ms 0); a try that is not granted is an error, as
// nobody else contends for the key.
inline void capi_acquire_release_cycles(benchmark::State &state, const char *url, std::int64_t key_value,
                                        const advlock_lock_options &options) {
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, url, nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    const advlock_target target = advlock_target_of_key(advlock_key_bigint(key_value));
    for (auto _ : state) {
        advlock_lock *lock = nullptr;
        const advlock_status status = advlock_session_acquire(&lock, session, &target, ADVLOCK_EXCLUSIVE, &options);
        if (status != ADVLOCK_OK || advlock_lock_release(lock) != ADVLOCK_OK) {
            state.SkipWithError(status == ADVLOCK_NOT_ACQUIRED ? "not granted: someone else holds the key"
                                                                : advlock_error_last()->message);
            advlock_lock_free(lock);
            break;
        }
        advlock_lock_free(lock);
    }
    advlock_session_free(session);
}

}  // namespace advlock::bench
