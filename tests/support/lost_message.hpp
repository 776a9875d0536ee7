// Waits for a core session's lost callback, for tests that use the core
// directly (the C ABI's is support/lost_recorder.hpp). No deadline: CTest's
// timeout bounds a hang. Declare it before the session, so the session (and
// its watchdog, which may call back) is gone before it is.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>

#include "session/lock_session.hpp"

namespace advlock::test {

class LostMessage {
public:
    void attach(core::LockSession &session) {
        session.set_lost_callback([this](const std::string &message, const std::string &) {
            std::lock_guard<std::mutex> guard(mutex_);
            why_ = message;
            fired_.notify_all();
        });
    }

    // Blocks until the callback fired; returns its message.
    std::string wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        fired_.wait(lock, [&] { return !why_.empty(); });
        return why_;
    }

private:
    std::mutex mutex_;
    std::condition_variable fired_;
    std::string why_;
};

}  // namespace advlock::test
