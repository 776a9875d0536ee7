// The advlock side of both lock-cycle benchmarks (PostgreSQL and MySQL): one
// session, then try_lock + release of one key per iteration, through the C ABI.
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

}  // namespace advlock::bench
