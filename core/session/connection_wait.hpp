// Taking a session's connection for a wait. One connection serves every
// thread of a session, and a wait on the server holds it for as long as that
// wait lasts; a second thread's wait (another key) must then not block past its
// own timeout, nor ignore its own cancellation, while queued for the
// connection.
#pragma once

#include <chrono>
#include <functional>
#include <mutex>
#include <string>

namespace advlock::core {

// Locks `connection` (a deferred lock on the session's mutex) and returns
// true; false when timeout_ms (>= 0, counted from `started`) ran out first.
// Throws Canceled, naming `doing`, when cancelled() turns true meanwhile.
bool take_connection_for_wait(std::unique_lock<std::mutex> &connection, long long timeout_ms,
                              std::chrono::steady_clock::time_point started, const std::function<bool()> &cancelled,
                              const std::string &doing);

// What is left of timeout_ms (< 0: no limit) since `started`; 0 when nothing
// is, which the backends take as one last try.
long long remaining_ms(long long timeout_ms, std::chrono::steady_clock::time_point started);

}  // namespace advlock::core
