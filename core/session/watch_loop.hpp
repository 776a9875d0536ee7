// The loop of a database session's watchdog thread, shared by PostgreSQL and
// MySQL (postgres/pg_session_watchdog.cpp, mysql/mysql_session_watchdog.cpp):
//
//  - While the connection is idle it waits for the socket to become readable:
//    a server ending the session says so or closes the connection, seen
//    within milliseconds (on_readable runs).
//  - After heartbeat_interval without a round trip it runs the heartbeat,
//    which declares the session lost when no answer arrives in time.
//  - While a user call is running it leaves the socket to it (it sees an
//    ended session itself), keeps time and listens only for the server
//    closing the connection, so the hot path pays (almost) nothing for the
//    watchdog; between calls it watches the socket as when idle, so a session
//    terminated right after a call is seen at once.
//  - Releases a lock handle's destructor left run as soon as it can take
//    the connection without waiting for it (a wait on the server may hold it
//    long); until then it looks again often.
//
// on_readable, heartbeat and run_pending run with the session's mutex held.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "session/loss_state.hpp"

namespace advlock::core {

// What user calls tell the watchdog, and how it is woken.
struct WatchSignals {
    int wake_fd = -1;  // an eventfd: written to wake the loop (to stop, or to look again)
    std::atomic<bool> stopping{false};
    std::atomic<int> calls_in_progress{0};
    std::atomic<std::int64_t> last_call_end_ns{0};  // steady_clock, nanoseconds

    // Creates the eventfd; false when the system refused.
    bool open();
    // Wakes the loop for good; safe to call twice.
    void stop() noexcept;
    // Wakes the loop to look again (not to stop).
    void wake() noexcept;
    void close() noexcept;
    static std::int64_t now_ns();
};

struct WatchHooks {
    int socket = -1;
    std::chrono::milliseconds heartbeat_interval{0};
    std::function<bool()> connected;    // false: the connection is closed, stop
    std::function<void()> on_readable;  // the idle socket became readable
    std::function<void()> heartbeat;    // a heartbeat is due
    std::function<bool()> pending;      // releases are waiting for the connection (PendingUnlocks)...
    std::function<void()> run_pending;  // ...and running them
};

// The name a watchdog thread has (ps -L, top -H, gdb).
constexpr const char *kWatchdogThreadName = "advlock-watch";

// A session's watchdog thread with its signals.
class WatchdogThread {
public:
    // Runs body on a new thread, which blocks every asynchronous signal (they
    // are the application's) and runs in short slices (short_time_slice.hpp).
    // Throws ConnectError when the system refuses an eventfd.
    void start(std::function<void()> body);
    // Wakes the loop and waits for the thread to end, unless the caller is
    // that thread (the lost callback runs on it and may end the session; the
    // thread then only returns, so it is let go). Safe to call twice.
    void stop() noexcept;
    WatchSignals &signals() { return signals_; }

private:
    WatchSignals signals_;
    std::thread thread_;
};

// One user call on a session: holds the session's mutex (the connection),
// tells the watchdog the user is busy, and at the end fires the lost callback,
// outside the mutex, if the call found a loss.
class UserCall {
public:
    UserCall(std::mutex &session_mutex, WatchSignals &signals, LossState &loss);
    // The same with the session's mutex already locked (connection_for_wait).
    UserCall(std::unique_lock<std::mutex> locked, WatchSignals &signals, LossState &loss);
    ~UserCall();
    UserCall(const UserCall &) = delete;
    UserCall &operator=(const UserCall &) = delete;

private:
    WatchSignals &signals_;
    LossState &loss_;
    std::unique_lock<std::mutex> lock_;
};

// Runs until signals.stopping or a loss (true), or until the socket cannot be
// waited on (false); the caller fires the lost callback after.
bool run_watch_loop(WatchSignals &signals, std::mutex &session_mutex, const LossState &loss, const WatchHooks &hooks);

}  // namespace advlock::core
