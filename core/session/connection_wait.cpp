#include "session/connection_wait.hpp"

#include <algorithm>
#include <thread>

#include "error.hpp"

namespace advlock::core {

std::optional<std::unique_lock<std::mutex>> connection_for_wait(std::mutex &session_mutex, long long timeout_ms,
                                                                std::chrono::steady_clock::time_point started,
                                                                const WaitCancelled &cancelled,
                                                                const std::string &doing) {
    std::unique_lock<std::mutex> connection(session_mutex, std::defer_lock);
    if (timeout_ms == 0) {
        connection.lock();  // a try waits for the connection as any call does
        return connection;
    }
    if (connection.try_lock()) return connection;  // the usual case: nobody else is waiting on the server
    // Polled: std::mutex cannot be waited on with a cancellation. The poll only
    // runs while another thread of the session waits on the server.
    auto pause = std::chrono::microseconds(200);
    for (;;) {
        if (cancelled()) cancelled.session().throw_wait_ended(doing, ": the wait was cancelled (while another thread of the session waited)");
        if (timeout_ms >= 0 && remaining_ms(timeout_ms, started) == 0) return std::nullopt;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(5000));
        if (connection.try_lock()) return connection;
    }
}

long long remaining_ms(long long timeout_ms, std::chrono::steady_clock::time_point started) {
    if (timeout_ms < 0) return timeout_ms;
    const auto spent =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    return std::max(0LL, timeout_ms - spent);
}

}  // namespace advlock::core
