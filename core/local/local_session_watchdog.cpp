// The watchdog of a host-local session. flock(2) itself cannot be lost, but
// the file it is on can be taken away: another user may remove a lock file
// it made in a shared directory (or anyone, in a directory they may write),
// and the next job then locks a new file of the same name and runs next to
// this one. So the watchdog watches the lock directory with inotify (a
// removal, rename or new file there is seen at once) and looks at every held
// file at least once per heartbeat interval (when inotify is unavailable, or
// missed something: an inotify queue can overflow). On a loss it records why
// and fires the lost callback once.
#include <cerrno>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "local/local_session.hpp"

namespace advlock::core {

namespace {

void drain(int fd) {
    char buffer[4096];
    while (::read(fd, buffer, sizeof buffer) > 0) {
    }
}

}  // namespace

int LocalSession::watch_directory_changes(int directory_fd) {
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

void LocalSession::watch() {
    WatchSignals &signals = watchdog_.signals();
    const int changes = changes_fd_;
    while (!signals.stopping.load() && !loss_.lost()) {
        pollfd watched[2] = {{signals.wake_fd, POLLIN, 0}, {changes, POLLIN, 0}};
        if (::poll(watched, changes >= 0 ? 2 : 1, heartbeat_interval_ms_) < 0 && errno != EINTR) break;
        if (watched[0].revents) {
            drain(signals.wake_fd);
            continue;
        }
        if (changes >= 0 && watched[1].revents) drain(changes);
        std::lock_guard<std::mutex> guard(mutex_);
        if (signals.stopping.load()) break;
        scan_files_locked();
    }
    loss_.fire_if_pending();  // last: the callback may end the session
}

}  // namespace advlock::core
