// One try+release cycle: through advlock's C ABI, and as the baseline, raw
// libpq running the same two prepared statements with the same binary
// parameters. Both hold a dedicated connection to the same server. Also the
// cycle with a fencing token (ADVLOCK_LOCK_FENCED) and a slot try (3 slots,
// the first free), each weighed against the plain C ABI cycle of the same run.
#include <benchmark/benchmark.h>
#include <libpq-fe.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "advlock.h"
#include "capi_cycle.hpp"
#include "bench_server.hpp"

namespace {

void put_int8(char *out, std::int64_t value) {
    auto bits = static_cast<std::uint64_t>(value);
    for (int i = 7; i >= 0; --i) {
        out[i] = static_cast<char>(bits & 0xFF);
        bits >>= 8;
    }
}

bool run_bool(PGconn *conn, const char *statement, const char *value) {
    const int length = 8, format = 1;
    std::unique_ptr<PGresult, decltype(&PQclear)> result(
        PQexecPrepared(conn, statement, 1, &value, &length, &format, 0), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_TUPLES_OK) throw std::runtime_error(PQerrorMessage(conn));
    return std::strcmp(PQgetvalue(result.get(), 0, 0), "t") == 0;
}

void BM_RawLibpqTryUnlock(benchmark::State &state) {
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(advlock::bench::server_url().c_str()), &PQfinish);
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        state.SkipWithError(PQerrorMessage(conn.get()));
        return;
    }
    PQclear(PQprepare(conn.get(), "try", "SELECT pg_try_advisory_lock($1::int8)", 0, nullptr));
    PQclear(PQprepare(conn.get(), "unlock", "SELECT pg_advisory_unlock($1::int8)", 0, nullptr));
    char key[8];
    put_int8(key, 424242);
    for (auto _ : state) {
        if (!run_bool(conn.get(), "try", key) || !run_bool(conn.get(), "unlock", key)) {
            state.SkipWithError("raw libpq cycle failed");
            break;
        }
    }
}

void BM_AdvlockCapiTryRelease(benchmark::State &state) {
    advlock::bench::capi_try_release_cycles(state, advlock::bench::server_url().c_str(), 424243);
}

// The fence table and functions (advlock_sql_fence), as `advlock sql fence |
// psql` creates them once per database; idempotent, so every run may.
bool create_fence(benchmark::State &state) {
    char *sql = nullptr;
    if (advlock_sql_fence(&sql) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return false;
    }
    std::unique_ptr<char, decltype(&advlock_free)> owned(sql, &advlock_free);
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn(PQconnectdb(advlock::bench::server_url().c_str()), &PQfinish);
    // Its "already exists, skipping" notices on every run after the first are not news.
    PQsetNoticeProcessor(conn.get(), [](void *, const char *) {}, nullptr);
    std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn.get(), sql), &PQclear);
    if (PQresultStatus(result.get()) != PGRES_COMMAND_OK && PQresultStatus(result.get()) != PGRES_TUPLES_OK) {
        const std::string why = std::string("creating the fence table: ") + PQerrorMessage(conn.get());
        state.SkipWithError(why.c_str());  // copied
        return false;
    }
    return true;
}

void BM_AdvlockCapiFencedTryRelease(benchmark::State &state) {
    if (!create_fence(state)) return;
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.flags = ADVLOCK_LOCK_FENCED;
    advlock::bench::capi_acquire_release_cycles(state, advlock::bench::server_url().c_str(), 424247, options);
}

void BM_AdvlockCapiSlotTryRelease(benchmark::State &state) {
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.slots = 3;  // all free: the try takes slot 1, the cheapest case
    advlock::bench::capi_acquire_release_cycles(state, advlock::bench::server_url().c_str(), 424248, options);
}

}  // namespace

BENCHMARK(BM_RawLibpqTryUnlock)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_AdvlockCapiTryRelease)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_AdvlockCapiFencedTryRelease)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
BENCHMARK(BM_AdvlockCapiSlotTryRelease)->Unit(benchmark::kMicrosecond)->MinTime(1.0);
