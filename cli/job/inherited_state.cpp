#include "job/inherited_state.hpp"

#include <csignal>
#include <cstdlib>
#include <dirent.h>
#include <fcntl.h>
#include <set>
#include <unistd.h>

namespace advlock::cli {

namespace {

constexpr int kSignals = 65;  // 1..64: the kernel's signal numbers on Linux
bool ignored_at_start[kSignals] = {};
sigset_t mask_at_start;
std::set<int> descriptors_at_start;

std::set<int> open_descriptors() {
    std::set<int> found;
    if (DIR *dir = ::opendir("/proc/self/fd")) {
        const int own = ::dirfd(dir);
        while (const dirent *entry = ::readdir(dir)) {
            const int fd = std::atoi(entry->d_name);
            if (entry->d_name[0] != '.' && fd != own) found.insert(fd);
        }
        ::closedir(dir);
    }
    return found;
}

}  // namespace

void capture_inherited_state() {
    for (int signal = 1; signal < kSignals; ++signal) {
        struct sigaction current {};
        ignored_at_start[signal] = ::sigaction(signal, nullptr, &current) == 0 && current.sa_handler == SIG_IGN;
    }
    ::sigprocmask(SIG_SETMASK, nullptr, &mask_at_start);
    descriptors_at_start = open_descriptors();
}

bool inherited_ignored(int signal) { return signal > 0 && signal < kSignals && ignored_at_start[signal]; }

void close_own_descriptors_on_exec() {
    for (const int fd : open_descriptors()) {
        if (fd <= STDERR_FILENO || descriptors_at_start.count(fd)) continue;
        const int flags = ::fcntl(fd, F_GETFD);
        if (flags >= 0 && !(flags & FD_CLOEXEC)) ::fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
    }
}

void restore_inherited_signals() {
    for (int signal = 1; signal < kSignals; ++signal) {
        if (signal == SIGKILL || signal == SIGSTOP) continue;
        struct sigaction action {};
        action.sa_handler = ignored_at_start[signal] ? SIG_IGN : SIG_DFL;
        sigemptyset(&action.sa_mask);
        ::sigaction(signal, &action, nullptr);  // fails harmlessly for the C library's own signals
    }
    ::sigprocmask(SIG_SETMASK, &mask_at_start, nullptr);
}

}  // namespace advlock::cli
