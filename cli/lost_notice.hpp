// The session's lost callback, turned into a pipe the main loop can poll: the
// callback runs on advlock's watchdog thread, the reaction belongs to main.
#pragma once

#include <mutex>
#include <string>

#include "advlock.hpp"

namespace advlock::cli {

class LostNotice {
public:
    explicit LostNotice(advlock::session &session);
    ~LostNotice();
    LostNotice(const LostNotice &) = delete;
    LostNotice &operator=(const LostNotice &) = delete;

    int fd() const { return pipe_[0]; }  // readable once the lock is lost
    std::string why() const;

private:
    int pipe_[2] = {-1, -1};
    mutable std::mutex mutex_;
    std::string why_;
};

}  // namespace advlock::cli
