// Whether a process a test started (or that a test's child started) is still
// alive. A dead process may linger as a zombie until whoever inherited it
// reaps it: that counts as gone.
#pragma once

#include <cerrno>
#include <chrono>
#include <csignal>
#include <fstream>
#include <string>
#include <sys/types.h>
#include <thread>

namespace advlock::test {

inline bool process_gone(pid_t pid) {
    if (::kill(pid, 0) != 0) return errno == ESRCH;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string pid_text, name, state;
    stat >> pid_text >> name >> state;
    return state == "Z";
}

// Waits for the process to die; false if it is still alive after a minute (a
// bound that turns a hang into a failure, not a timing assertion).
inline bool wait_until_gone(pid_t pid) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (!process_gone(pid)) {
        if (std::chrono::steady_clock::now() > give_up) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

}  // namespace advlock::test
