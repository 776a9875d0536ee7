// The waits of one session on its server (or, for the local backend, on its
// lock files), and their cancellation from other threads: LockSession::cancel
// and a wait's own CancelToken. Every backend's wait has the same three
// rules, kept here once:
//
//  - Checked before the wait begins, atomically with starting it: a cancel
//    that comes between the check and the statement would otherwise find
//    nothing to interrupt and be lost.
//  - Interrupted only while its statement runs: a cancel must never reach
//    the next statement on the connection (the reconciliation after a wait,
//    another thread's call). end() waits for an interrupt in flight.
//  - A grant beats a cancel that came too late to stop it: the caller looks
//    at the statement's outcome first, at the cancellation second.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

#include "session/cancel_token.hpp"
#include "session/connection_wait.hpp"

namespace advlock::core {

class ServerWaits {
public:
    // interrupt stops the statement in progress on the server (PQcancel,
    // KILL QUERY); none for the local backend, whose waits are paused polls.
    // It runs with this object's mutex held, only between begin() and end().
    explicit ServerWaits(std::function<void()> interrupt = {}) : interrupt_(std::move(interrupt)) {}

    // From any thread (LockSession::cancel_server_wait, a token): ends the
    // wait in progress, if any. What was cancelled, the waiter learns from its
    // WaitCancelled.
    void interrupt() noexcept;

    // One lock call's waits, by the thread holding the connection (the local
    // backend: by every waiting thread). Watches the call's token meanwhile;
    // make it while holding none of this object's mutexes (CancelToken::Watch).
    class Wait {
    public:
        Wait(ServerWaits &waits, const WaitCancelled &cancelled, const CancelToken *token)
            : waits_(waits), cancelled_(cancelled), watch_(token, [&waits] { waits.interrupt(); }) {}
        Wait(const Wait &) = delete;
        Wait &operator=(const Wait &) = delete;

        // Unless cancelled (false), runs start (sends the statement; may be
        // empty when the statement is sent right after) and marks the wait as
        // running, so that interrupt() stops it.
        bool begin(const std::function<void()> &start = {});
        // The statement ended: nothing interrupts it any more. Returns whether
        // the wait was cancelled meanwhile.
        bool end();
        // Sleeps up to `pause` or until cancelled; returns whether cancelled.
        bool pause(std::chrono::milliseconds pause);

    private:
        ServerWaits &waits_;
        const WaitCancelled &cancelled_;
        CancelToken::Watch watch_;
    };

private:
    std::function<void()> interrupt_;
    std::mutex mutex_;
    std::condition_variable woken_;
    bool running_ = false;
};

}  // namespace advlock::core
