// Lost-lock detection: how soon the lost callback fires after the server
// terminates the lock session (and, for the host-local backend, after another
// process removes a held lock file), and what the watchdog's heartbeat costs
// next to SELECT 1 and to asking pg_locks, with 1, 1,000 and 5,000 locks held
// on the server by another session.
#include <benchmark/benchmark.h>
#include <libpq-fe.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <poll.h>
#include <unistd.h>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "advlock.h"
#include "bench_server.hpp"
#include "percentiles.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Connection {
    std::unique_ptr<PGconn, decltype(&PQfinish)> conn{nullptr, &PQfinish};
    explicit Connection(const std::string &url) : conn(PQconnectdb(url.c_str()), &PQfinish) {}
    void exec(const std::string &sql) { PQclear(PQexec(conn.get(), sql.c_str())); }
};

// When the lost callback ran. The trial's thread sleeps until then, as the
// baseline's thread sleeps in join(): a thread spinning on yield() here held
// one of the machine's two CPUs while the watchdog and the server's processes
// needed them, and the rows' p99 measured that spin, not the watchdog.
class LossTime {
public:
    // From the watchdog's thread: the time first, then the wake-up.
    void mark() {
        const Clock::time_point now = Clock::now();
        std::lock_guard<std::mutex> guard(mutex_);
        at_ = now;
        known_ = true;
        changed_.notify_one();
    }
    Clock::time_point wait() {
        std::unique_lock<std::mutex> guard(mutex_);
        changed_.wait(guard, [this] { return known_; });
        return at_;
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    Clock::time_point at_;
    bool known_ = false;
};

void on_lost(const advlock_error *, void *payload) { static_cast<LossTime *>(payload)->mark(); }

// A session whose lost callback marks lost; nullptr (and the benchmark marked
// failed) when it cannot be opened.
advlock_session *open_timed(benchmark::State &state, const std::string &url, LossTime &lost) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.on_lost = &on_lost;
    options.on_lost_payload = &lost;
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, url.c_str(), &options) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return nullptr;
    }
    return session;
}

void BM_TerminateToLostCallback(benchmark::State &state) {
    const std::string url = advlock::bench::server_url();
    Connection observer(url);
    std::vector<double> latencies_us;
    for (auto _ : state) {
        LossTime lost;
        advlock_session *session = open_timed(state, url, lost);
        if (!session) break;
        const advlock_target target = advlock_target_of_key(advlock_key_bigint(626262));
        advlock_lock *lock = nullptr;
        advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE);
        int64_t pid = 0;
        advlock_session_server_id(&pid, session);

        // Arg 1: the job is at work, 20 ms past its last advlock call (the usual
        // case); arg 0: terminated right after a call, while the watchdog
        // leaves the socket to the user's calls (the worst case).
        if (state.range(0)) std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const Clock::time_point terminate_start = Clock::now();
        observer.exec("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
        const double us = std::chrono::duration<double, std::micro>(lost.wait() - terminate_start).count();
        latencies_us.push_back(us);
        state.SetIterationTime(us / 1e6);
        advlock_lock_free(lock);
        advlock_session_free(session);
    }
    state.counters["p50_us"] = advlock::bench::percentile(latencies_us, 0.50);
    state.counters["p99_us"] = advlock::bench::percentile(latencies_us, 0.99);
    state.counters["trials"] = static_cast<double>(latencies_us.size());
}

// The floor of the two rows above: a raw libpq connection idle 20 ms after a
// statement, and a thread waiting in poll() for its socket to become
// readable, the least any client can do to hear of its termination; same
// clocks, same statement.
void BM_TerminateToSocketReadable(benchmark::State &state) {
    const std::string url = advlock::bench::server_url();
    Connection observer(url);
    std::vector<double> latencies_us;
    for (auto _ : state) {
        Connection victim(url);
        if (PQstatus(victim.conn.get()) != CONNECTION_OK) {
            state.SkipWithError(PQerrorMessage(victim.conn.get()));
            break;
        }
        victim.exec("SELECT 1");  // as the lock session, which has run its set-up and a lock
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const int pid = PQbackendPID(victim.conn.get());
        std::atomic<Clock::rep> readable_at{0};
        std::thread waiter([&] {
            pollfd socket{PQsocket(victim.conn.get()), POLLIN, 0};
            while (::poll(&socket, 1, -1) < 0) {
            }
            readable_at.store(Clock::now().time_since_epoch().count());
        });
        const Clock::time_point terminate_start = Clock::now();
        observer.exec("SELECT pg_terminate_backend(" + std::to_string(pid) + ")");
        waiter.join();
        const double us = std::chrono::duration<double, std::micro>(
                              Clock::time_point(Clock::duration(readable_at.load())) - terminate_start)
                              .count();
        latencies_us.push_back(us);
        state.SetIterationTime(us / 1e6);
    }
    state.counters["p50_us"] = advlock::bench::percentile(latencies_us, 0.50);
    state.counters["p99_us"] = advlock::bench::percentile(latencies_us, 0.99);
    state.counters["trials"] = static_cast<double>(latencies_us.size());
}

// The local backend: a held lock file removed (as another user may remove a
// file it made in the shared directory) -> the lost callback, with no call
// from the job, range(0) ms after the lock was taken: 20 (the watchdog still
// looks every 20 ms) and 300 (it watches with inotify by then). The goal is
// the heartbeat interval (2 s).
void BM_LocalFileRemovedToLostCallback(benchmark::State &state) {
    char pattern[] = "/tmp/advlock-bench-local.XXXXXX";
    if (!mkdtemp(pattern)) {
        state.SkipWithError("mkdtemp failed");
        return;
    }
    const std::string directory = pattern, url = "local:" + directory;
    std::vector<double> latencies_us;
    for (auto _ : state) {
        LossTime lost;
        advlock_session *session = open_timed(state, url, lost);
        if (!session) break;
        const advlock_target target = advlock_target_of_key(advlock_key_pair(64, 64));
        advlock_lock *lock = nullptr;
        advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE);
        std::this_thread::sleep_for(std::chrono::milliseconds(state.range(0)));  // the job at work
        const Clock::time_point removed = Clock::now();
        ::unlink((directory + "/64:64.lock").c_str());
        const double us = std::chrono::duration<double, std::micro>(lost.wait() - removed).count();
        latencies_us.push_back(us);
        state.SetIterationTime(us / 1e6);
        advlock_lock_free(lock);
        advlock_session_free(session);
    }
    std::system(("rm -rf " + directory).c_str());
    state.counters["p50_us"] = advlock::bench::percentile(latencies_us, 0.50);
    state.counters["p99_us"] = advlock::bench::percentile(latencies_us, 0.99);
    state.counters["trials"] = static_cast<double>(latencies_us.size());
}

// Another session holds `count` advisory locks while the benchmark runs.
class LockFiller {
public:
    LockFiller(const std::string &url, long count) : connection_(url) {
        connection_.exec("SELECT pg_advisory_lock(700000000 + g) FROM generate_series(1, " + std::to_string(count) +
                         ") g");
    }
    ~LockFiller() { connection_.exec("SELECT pg_advisory_unlock_all()"); }

private:
    Connection connection_;
};

void BM_SelectOne(benchmark::State &state) {
    const std::string url = advlock::bench::server_url();
    LockFiller filler(url, state.range(0));
    Connection connection(url);
    PQclear(PQprepare(connection.conn.get(), "one", "SELECT 1", 0, nullptr));
    for (auto _ : state) PQclear(PQexecPrepared(connection.conn.get(), "one", 0, nullptr, nullptr, nullptr, 0));
}

// verify(strict = false) is the heartbeat; strict adds the pg_locks query.
void verify_benchmark(benchmark::State &state, int strict) {
    const std::string url = advlock::bench::server_url();
    LockFiller filler(url, state.range(0));
    advlock_session *session = nullptr;
    if (advlock_session_open(&session, url.c_str(), nullptr) != ADVLOCK_OK) {
        state.SkipWithError(advlock_error_last()->message);
        return;
    }
    const advlock_target target = advlock_target_of_key(advlock_key_bigint(636363));
    advlock_lock *lock = nullptr;
    advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE);
    for (auto _ : state) {
        if (advlock_lock_verify(lock, strict ? ADVLOCK_VERIFY_STRICT : 0u) != ADVLOCK_OK) {
            state.SkipWithError(advlock_error_last()->message);
            break;
        }
    }
    advlock_lock_free(lock);
    advlock_session_free(session);
}

void BM_Heartbeat(benchmark::State &state) { verify_benchmark(state, 0); }
void BM_StrictVerify(benchmark::State &state) { verify_benchmark(state, 1); }

}  // namespace

BENCHMARK(BM_TerminateToLostCallback)->Arg(1)->Arg(0)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(250);
BENCHMARK(BM_TerminateToSocketReadable)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(250);
BENCHMARK(BM_LocalFileRemovedToLostCallback)->Arg(20)->Arg(300)->UseManualTime()->Unit(benchmark::kMicrosecond)->Iterations(100);
BENCHMARK(BM_SelectOne)->Arg(1)->Arg(1000)->Arg(5000)->Unit(benchmark::kMicrosecond)->MinTime(0.5);
BENCHMARK(BM_Heartbeat)->Arg(1)->Arg(1000)->Arg(5000)->Unit(benchmark::kMicrosecond)->MinTime(0.5);
BENCHMARK(BM_StrictVerify)->Arg(1)->Arg(1000)->Arg(5000)->Unit(benchmark::kMicrosecond)->MinTime(0.5);
