// The sessions' lost callbacks, turned into one pipe the main loop can poll:
// the callbacks run on advlock's watchdog threads, the reaction belongs to
// main. With --also-local both the host's and the database's lock are
// watched: losing either one stops the job.
#pragma once

#include <memory>
#include <string>

#include "advlock.hpp"

namespace advlock::cli {

class LostNotice {
public:
    explicit LostNotice(advlock::session &session);
    // Also tell of this session's loss.
    void watch(advlock::session &session);

    int fd() const;  // readable once the lock is lost
    std::string why() const;  // the first loss's reason

private:
    // Shared with the callback the session keeps, so it stays valid for as
    // long as the session can still call it, whatever is destroyed first.
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace advlock::cli
