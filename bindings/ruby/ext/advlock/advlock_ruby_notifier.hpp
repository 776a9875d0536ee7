// on_lost's notifier, for advlock_ruby.i: a native thread per session waits
// until the locks are lost (or the session closes), writes why (nothing on
// close) to a pipe and closes it. The Ruby thread that calls the user's
// blocks waits on that pipe with IO.select, a wait during which Ruby handles
// signals. Had it waited in native code itself, no thread would be left to
// turn a Ctrl-C into an Interrupt of a main thread waiting for a lock: Ruby
// starts its own helper for that only while the process has one thread.
#pragma once

#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "advlock_swig.hpp"

namespace advlock_ruby {

struct notifier {
    std::thread thread;
    pid_t pid = 0;
};

inline std::mutex &notifiers_mutex() {
    static std::mutex mutex;
    return mutex;
}
inline std::unordered_map<advlock_swig::Session *, notifier> &notifiers() {
    static std::unordered_map<advlock_swig::Session *, notifier> map;
    return map;
}

inline void write_all(int fd, const std::string &text) {
    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;  // the reader is gone: nobody to tell
        done += static_cast<std::size_t>(n);
    }
}

// Starts the session's notifier, which owns fd from now on. At most once per session.
inline void notify_lost_to(advlock_swig::Session *session, int fd) {
    std::lock_guard<std::mutex> guard(notifiers_mutex());
    if (notifiers().count(session) != 0) {
        throw advlock::misuse(ADVLOCK_EMISUSE, "advlock: notify_lost_to: the session already has a notifier", "");
    }
    notifier started;
    started.thread = std::thread([session, fd] {
        write_all(fd, session->wait_until_lost());
        ::close(fd);
    });
    started.pid = ::getpid();
    notifiers()[session] = std::move(started);
}

// The session proxy's free function: the notifier uses the session, so it
// must have returned first (closing makes it return). In a forked child the
// thread does not exist: its handle is left alone, never joined.
inline void free_session(void *pointer) {
    auto *session = static_cast<advlock_swig::Session *>(pointer);
    notifier found;
    {
        std::lock_guard<std::mutex> guard(notifiers_mutex());
        auto it = notifiers().find(session);
        if (it != notifiers().end()) {
            found = std::move(it->second);
            notifiers().erase(it);
        }
    }
    if (found.thread.joinable()) {
        if (found.pid == ::getpid()) {
            session->close();
            found.thread.join();
        } else {
            new std::thread(std::move(found.thread));  // leaked on purpose: see above
        }
    }
    delete session;
}

}  // namespace advlock_ruby
