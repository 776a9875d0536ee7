// Records lost callbacks for a test: how many fired, the last reason, and a
// wait for the first one (no deadline: CTest's timeout bounds a hang).
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>

#include "advlock.h"

namespace advlock::test {

class LostRecorder {
public:
    static void callback(const advlock_error *why, void *payload) {
        auto *self = static_cast<LostRecorder *>(payload);
        std::lock_guard<std::mutex> guard(self->mutex_);
        ++self->count_;
        self->status_ = why->status;
        self->message_ = why->message;
        self->sqlstate_ = why->sqlstate;
        self->fired_.notify_all();
    }

    // Blocks until the callback fired; returns its message.
    std::string wait() {
        std::unique_lock<std::mutex> lock(mutex_);
        fired_.wait(lock, [&] { return count_ > 0; });
        return message_;
    }

    int count() {
        std::lock_guard<std::mutex> guard(mutex_);
        return count_;
    }
    advlock_status status() {
        std::lock_guard<std::mutex> guard(mutex_);
        return status_;
    }
    std::string sqlstate() {
        std::lock_guard<std::mutex> guard(mutex_);
        return sqlstate_;
    }

private:
    std::mutex mutex_;
    std::condition_variable fired_;
    int count_ = 0;
    advlock_status status_ = ADVLOCK_OK;
    std::string message_, sqlstate_;
};

}  // namespace advlock::test
