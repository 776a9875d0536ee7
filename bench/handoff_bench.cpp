// Hand-off latency: from the moment the holder starts releasing to the moment
// a waiter blocked in advlock_session_lock (a server-side wait, no polling)
// holds the lock. Reported as p50 and p99 over many hand-offs.
#include <benchmark/benchmark.h>
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "advlock.h"
#include "bench_server.hpp"
#include "percentiles.hpp"

namespace {

using Clock = std::chrono::steady_clock;

bool waiting_on_server(PGconn *observer, int64_t pid) {
    const std::string sql = "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = " +
                            std::to_string(pid);
    PGresult *result = PQexec(observer, sql.c_str());
    const bool waiting = PQntuples(result) > 0;
    PQclear(result);
    return waiting;
}

void BM_HandOff(benchmark::State &state) {
    const std::string url = advlock::bench::server_url();
    advlock_session *holder = nullptr, *waiter = nullptr;
    if (advlock_session_open(&holder, url.c_str(), nullptr) != ADVLOCK_OK ||
        advlock_session_open(&waiter, url.c_str(), nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    PGconn *observer = PQconnectdb(url.c_str());
    int64_t waiter_pid = 0;
    advlock_session_server_id(&waiter_pid, waiter);
    const advlock_target target = advlock_target_of_key(advlock_key_bigint(515151));
    std::vector<double> latencies_us;

    for (auto _ : state) {
        advlock_lock *held = nullptr;
        if (advlock_session_try_lock(&held, holder, &target, ADVLOCK_EXCLUSIVE) != ADVLOCK_OK) {
            // Else the waiter would not wait, and the loop below would spin forever.
            state.SkipWithError("the holder could not take the lock");
            break;
        }
        std::atomic<Clock::rep> acquired_at{0};
        std::thread waiting([&] {
            advlock_lock *lock = nullptr;
            if (advlock_session_lock(&lock, waiter, &target, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER) == ADVLOCK_OK) {
                acquired_at = Clock::now().time_since_epoch().count();
                // Released before the next hand-off: advlock_lock_free alone
                // hands the release to the session's thread, for later.
                advlock_lock_release(lock);
            }
            advlock_lock_free(lock);
        });
        while (!waiting_on_server(observer, waiter_pid)) {
        }
        const Clock::time_point release_start = Clock::now();
        advlock_lock_release(held);
        waiting.join();
        advlock_lock_free(held);
        const auto elapsed = Clock::time_point(Clock::duration(acquired_at.load())) - release_start;
        const double us = std::chrono::duration<double, std::micro>(elapsed).count();
        latencies_us.push_back(us);
        state.SetIterationTime(us / 1e6);
    }
    state.counters["p50_us"] = advlock::bench::percentile(latencies_us, 0.50);
    state.counters["p99_us"] = advlock::bench::percentile(latencies_us, 0.99);
    state.counters["handoffs"] = static_cast<double>(latencies_us.size());
    PQfinish(observer);
    advlock_session_free(waiter);
    advlock_session_free(holder);
}

}  // namespace

BENCHMARK(BM_HandOff)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(500);
