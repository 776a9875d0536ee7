// The session's lost callback, turned into a pipe the main loop can poll: the
// callback runs on advlock's watchdog thread, the reaction belongs to main.
#pragma once

#include <memory>
#include <string>

#include "advlock.hpp"

namespace advlock::cli {

class LostNotice {
public:
    explicit LostNotice(advlock::session &session);

    int fd() const;  // readable once the lock is lost
    std::string why() const;

private:
    // Shared with the callback the session keeps, so it stays valid for as
    // long as the session can still call it, whatever is destroyed first.
    struct State;
    std::shared_ptr<State> state_;
};

}  // namespace advlock::cli
