// Taking a session's connection for a wait. One connection serves every
// thread of a session, and a wait on the server holds it for as long as that
// wait lasts; a second thread's wait (another key) must then not block past its
// own timeout, nor ignore its own cancellation, while queued for the
// connection.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "session/lock_session.hpp"

namespace advlock::core {

// Whether a wait was cancelled since it began: by its own token, or by its
// session's cancel() (counted, so one that came while the wait was still
// queued for the connection counts too).
class WaitCancelled {
public:
    WaitCancelled(const LockSession &session, const CancelToken *token)
        : session_(session), token_(token), cancels_before_(session.cancels()) {}
    bool operator()() const { return (token_ && token_->cancelled()) || session_.cancels() != cancels_before_; }
    const LockSession &session() const { return session_; }

private:
    const LockSession &session_;
    const CancelToken *token_;
    std::uint64_t cancels_before_;
};

// The session's connection (its mutex, locked) for a lock call: at once for a
// try (timeout_ms 0); for a wait, no longer than timeout_ms (< 0: no limit)
// counted from `started` (empty when that ran out first), throwing Canceled,
// naming `doing`, when cancelled() turns true meanwhile.
std::optional<std::unique_lock<std::mutex>> connection_for_wait(std::mutex &session_mutex, long long timeout_ms,
                                                                std::chrono::steady_clock::time_point started,
                                                                const WaitCancelled &cancelled,
                                                                const std::string &doing);

// What is left of timeout_ms (< 0: no limit) since `started`; 0 when nothing
// is, which the backends take as one last try.
long long remaining_ms(long long timeout_ms, std::chrono::steady_clock::time_point started);

}  // namespace advlock::core
