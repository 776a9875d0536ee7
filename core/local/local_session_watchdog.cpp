// The watchdog of a host-local session. flock(2) itself cannot be lost, but
// the file it is on can be taken away: another user may remove a lock file
// it made in a shared directory (or anyone, in a directory they may write),
// and the next job then locks a new file of the same name and runs next to
// this one. So the watchdog looks at every held file at least once per
// heartbeat interval, and once a lock has been held for a moment it also
// watches the directory with inotify, which reports a removal, rename or new
// file there at once. Not from the first moment: closing an inotify instance
// waits for the kernel's SRCU grace period (often 10-20 ms), which a short
// job (`advlock run -- true`) would pay at exit for nothing; until inotify is
// armed the watchdog looks every kEarlyLook instead. On a loss it records why
// and fires the lost callback once.
#include <cerrno>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "local/local_session.hpp"

namespace advlock::core {

namespace {

using Clock = std::chrono::steady_clock;

// How long a lock is held before inotify is armed, and how often the watchdog
// looks meanwhile.
constexpr std::chrono::milliseconds kArmAfter{200};
constexpr std::chrono::milliseconds kEarlyLook{20};

void drain(int fd) {
    char buffer[4096];
    while (::read(fd, buffer, sizeof buffer) > 0) {
    }
}

// -1 when refused (too many instances, no /proc): the watchdog then only
// looks every heartbeat interval.
int watch_directory_changes(int directory_fd) {
    const int changes = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (changes < 0) return -1;
    const std::string path = "/proc/self/fd/" + std::to_string(directory_fd);
    constexpr std::uint32_t kEvents =
        IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF;
    if (::inotify_add_watch(changes, path.c_str(), kEvents | IN_ONLYDIR) < 0) {
        ::close(changes);
        return -1;
    }
    return changes;
}

}  // namespace

void LocalSession::watch() {
    WatchSignals &signals = watchdog_.signals();
    int changes = -1;
    bool inotify_refused = false;
    int timeout_ms = heartbeat_interval_ms_;
    while (!signals.stopping.load() && !loss_.lost()) {
        pollfd watched[2] = {{signals.wake_fd, POLLIN, 0}, {changes, POLLIN, 0}};
        if (::poll(watched, changes >= 0 ? 2 : 1, timeout_ms) < 0 && errno != EINTR) break;
        if (watched[0].revents) drain(signals.wake_fd);  // stopping, or a first lock was taken
        if (changes >= 0 && watched[1].revents) drain(changes);
        std::lock_guard<std::mutex> guard(mutex_);
        if (signals.stopping.load()) break;
        timeout_ms = heartbeat_interval_ms_;
        if (changes < 0 && !inotify_refused && !held_.empty()) {
            if (Clock::now() - held_since_ >= kArmAfter) {
                changes = watch_directory_changes(directory_->fd());
                inotify_refused = changes < 0;
            } else {
                timeout_ms = static_cast<int>(kEarlyLook.count());
            }
        }
        scan_files_locked();  // also right after arming: a change may have come before the watch
    }
    // The callback first: closing inotify can take a grace period. After the
    // callback nothing of the session is touched (it may have ended it).
    loss_.fire_if_pending();
    if (changes >= 0) ::close(changes);
}

}  // namespace advlock::core
