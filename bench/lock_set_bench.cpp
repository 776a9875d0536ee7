// A set of N locks taken all or nothing and released (advlock_session_acquire_all
// + advlock_lock_release_all: one round trip each on PostgreSQL), against the
// baseline of the same run: N single try+release cycles through the C ABI.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "advlock.h"
#include "bench_server.hpp"

namespace {

constexpr std::int64_t kFirstKey = 425000;

std::vector<advlock_target> set_targets(std::size_t count) {
    std::vector<advlock_target> targets;
    for (std::size_t i = 0; i < count; ++i) {
        targets.push_back(advlock_target_of_key(advlock_key_bigint(kFirstKey + static_cast<std::int64_t>(i))));
    }
    return targets;
}

void BM_LockSetTryRelease(benchmark::State &state) {
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, advlock::bench::server_url().c_str(), nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    const std::vector<advlock_target> targets = set_targets(static_cast<std::size_t>(state.range(0)));
    std::vector<advlock_lock *> locks(targets.size(), nullptr);
    for (auto _ : state) {
        const advlock_status status = advlock_session_acquire_all(locks.data(), session, targets.data(),
                                                                  targets.size(), ADVLOCK_EXCLUSIVE, nullptr);
        if (status != ADVLOCK_OK || advlock_lock_release_all(locks.data(), locks.size()) != ADVLOCK_OK) {
            state.SkipWithError(status == ADVLOCK_NOT_ACQUIRED ? "not granted: someone else holds a key"
                                                                : advlock_error_last()->message);
            for (advlock_lock *lock : locks) advlock_lock_free(lock);
            break;
        }
        for (advlock_lock *lock : locks) advlock_lock_free(lock);
    }
    advlock_session_free(session);
}

void BM_SingleLocksTryRelease(benchmark::State &state) {
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, advlock::bench::server_url().c_str(), nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    const std::vector<advlock_target> targets = set_targets(static_cast<std::size_t>(state.range(0)));
    for (auto _ : state) {
        for (const advlock_target &target : targets) {
            advlock_lock *lock = nullptr;
            if (advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE) != ADVLOCK_OK ||
                advlock_lock_release(lock) != ADVLOCK_OK) {
                state.SkipWithError(advlock_error_last()->message);
                advlock_lock_free(lock);
                advlock_session_free(session);
                return;
            }
            advlock_lock_free(lock);
        }
    }
    advlock_session_free(session);
}

}  // namespace

BENCHMARK(BM_LockSetTryRelease)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_SingleLocksTryRelease)->Arg(1)->Arg(4)->Arg(16)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
