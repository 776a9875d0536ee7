// The scope of one user call on a PgSession's connection (pg_session.cpp,
// pg_session_sets.cpp): the connection's mutex, and the watchdog told.
#pragma once

#include "postgres/pg_session.hpp"

namespace advlock::core {

// Every call first runs the releases lock handles' destructors left: they
// are due, and a call that waits on the server would otherwise keep them
// waiting as long.
class PgSession::Call : public UserCall {
public:
    explicit Call(PgSession &session) : UserCall(session.mutex_, session.watchdog_.signals(), session.loss_) {
        session.run_pending_unlocks_locked();
    }
    Call(PgSession &session, std::unique_lock<std::mutex> locked)
        : UserCall(std::move(locked), session.watchdog_.signals(), session.loss_) {
        session.run_pending_unlocks_locked();
    }
};

}  // namespace advlock::core
