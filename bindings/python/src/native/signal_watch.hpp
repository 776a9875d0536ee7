// signal_watch.hpp: lets Ctrl-C end a lock wait that runs on the main
// thread, inside the core, without the GIL.
//
// Why the wait runs on the calling thread at all: the core knows a lock's
// owner by the thread that took it (re-entry, "this thread holds it already"),
// so a wait moved to a helper thread would belong to the wrong thread.
//
// How: Python's C-level signal handler (on whichever thread the kernel picked)
// writes the signal's number to the "wakeup fd" (signal.set_wakeup_fd). While
// the wait runs, that fd is a pipe of ours; a helper thread that takes no
// signals watches it and calls on_signal (which cancels the wait), and passes
// the bytes on to the fd that was set before (asyncio's, say). It ends the
// wait through the wait's own cancel token (advlock_cancel_token), so other
// threads' waits on the same session go on. The main thread then runs the
// Python handlers (PyErr_CheckSignals) as soon as the core returns. Only the
// main thread may do this: Python runs handlers there only.
//
// signal_wakeup is that pipe alone, for a wait that can poll it itself
// (Session.wait_lost polls it beside the session's loss fd).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "binding.hpp"

namespace advlock_python {

// A thread that takes no asynchronous signal, so that the kernel delivers
// them to the Python threads, where Python's handler runs. (advlock's own
// watchdog threads block them too.)
template <typename Body>
std::thread thread_without_signals(Body body) {
    sigset_t asynchronous, before;
    sigfillset(&asynchronous);
    for (const int fault : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT}) sigdelset(&asynchronous, fault);
    pthread_sigmask(SIG_BLOCK, &asynchronous, &before);
    std::thread thread(std::move(body));
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    return thread;
}

// A pipe that is Python's signal wakeup fd while it lives: readable once a
// signal arrived. forward() passes the bytes on to the fd set before.
class signal_wakeup {
public:
    // Call with the GIL held, on the main thread.
    signal_wakeup() {
        if (::pipe2(fds_, O_NONBLOCK | O_CLOEXEC) != 0) {
            throw advlock::error(ADVLOCK_ERROR, std::string("advlock: cannot make the pipe that lets Ctrl-C end a "
                                                            "wait: ") + std::strerror(errno), "");
        }
        try {
            previous_fd_ = set_wakeup_fd(fds_[1]);
        } catch (...) {
            for (int fd : fds_) ::close(fd);
            throw;
        }
    }
    signal_wakeup(const signal_wakeup &) = delete;
    signal_wakeup &operator=(const signal_wakeup &) = delete;
    // Call with the GIL held.
    ~signal_wakeup() {
        try {
            set_wakeup_fd(previous_fd_);  // from here on, signals reach the previous fd directly
        } catch (py::error_already_set &error) {
            error.discard_as_unraisable("advlock: restoring signal.set_wakeup_fd");  // that fd was closed meanwhile
        }
        forward();  // what arrived in between
        for (int fd : fds_) ::close(fd);
    }

    int fd() const { return fds_[0]; }

    // Moves the signal bytes to the previous wakeup fd; true when there were any.
    bool forward() {
        unsigned char bytes[64];
        bool any = false;
        ssize_t n;
        while ((n = ::read(fds_[0], bytes, sizeof bytes)) > 0) {
            any = true;
            if (previous_fd_ >= 0) (void)!::write(previous_fd_, bytes, static_cast<size_t>(n));
        }
        return any;
    }

private:
    // signal.set_wakeup_fd (its C function is not exported); returns the previous fd.
    static int set_wakeup_fd(int fd) {
        return py::module_::import("signal").attr("set_wakeup_fd")(fd).cast<int>();
    }

    int fds_[2] = {-1, -1};
    int previous_fd_ = -1;
};

class signal_watch {
public:
    // Call with the GIL held, on the main thread.
    signal_watch() {
        if (::pipe2(stop_, O_NONBLOCK | O_CLOEXEC) != 0) {
            throw advlock::error(ADVLOCK_ERROR, std::string("advlock: cannot make the pipe that lets Ctrl-C end a "
                                                            "wait: ") + std::strerror(errno), "");
        }
        watcher_ = thread_without_signals([this] { watch(); });
    }
    signal_watch(const signal_watch &) = delete;
    signal_watch &operator=(const signal_watch &) = delete;
    // Call with the GIL held (the watcher never takes it); wakeup_ then
    // restores the previous wakeup fd and forwards what arrived meanwhile.
    ~signal_watch() {
        const char stop = 0;
        (void)!::write(stop_[1], &stop, 1);
        watcher_.join();
        for (int fd : stop_) ::close(fd);
    }

    // The token to give the next wait; a signal cancels it.
    const advlock::cancel_token &token() {
        std::lock_guard<std::mutex> guard(mutex_);
        return *token_;
    }

    // After a wait ended as cancelled: true when a signal did it (and the
    // token is then a fresh one, cancelling being sticky), false when it was
    // Session.cancel(). Only while no wait uses the token.
    bool signal_cancelled_the_wait() {
        std::lock_guard<std::mutex> guard(mutex_);
        if (!fired_) return false;
        fired_ = false;
        token_ = std::make_unique<advlock::cancel_token>();
        return true;
    }

private:
    void watch() {
        pollfd fds[2] = {{wakeup_.fd(), POLLIN, 0}, {stop_[0], POLLIN, 0}};
        for (;;) {
            if (::poll(fds, 2, -1) < 0) continue;  // EINTR: signals are blocked here, but be safe
            if ((fds[0].revents & POLLIN) && wakeup_.forward()) {
                // One step, so that a wait ended by this cancel always finds fired_ set.
                std::lock_guard<std::mutex> guard(mutex_);
                fired_ = true;
                token_->cancel();
            }
            if (fds[1].revents & POLLIN) return;
        }
    }

    signal_wakeup wakeup_;  // first: it outlives the watcher, which reads it
    int stop_[2] = {-1, -1};
    std::mutex mutex_;  // guards fired_ and token_, shared with the watcher
    bool fired_ = false;
    std::unique_ptr<advlock::cancel_token> token_ = std::make_unique<advlock::cancel_token>();
    std::thread watcher_;
};

}  // namespace advlock_python
