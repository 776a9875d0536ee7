#include "lost_notice.hpp"

#include <fcntl.h>
#include <mutex>
#include <stdexcept>
#include <unistd.h>

namespace advlock::cli {

struct LostNotice::State {
    int pipe[2] = {-1, -1};
    std::mutex mutex;
    std::string why;

    State() {
        if (::pipe2(pipe, O_CLOEXEC | O_NONBLOCK) != 0) throw std::runtime_error("pipe2 failed");
    }
    ~State() {
        ::close(pipe[0]);
        ::close(pipe[1]);
    }
};

LostNotice::LostNotice(advlock::session &session) : state_(std::make_shared<State>()) { watch(session); }

void LostNotice::watch(advlock::session &session) {
    session.on_lost([state = state_](const std::string &why) {
        std::lock_guard<std::mutex> guard(state->mutex);
        if (state->why.empty()) state->why = why;
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = ::write(state->pipe[1], &byte, 1);
    });
}

int LostNotice::fd() const { return state_->pipe[0]; }

std::string LostNotice::why() const {
    std::lock_guard<std::mutex> guard(state_->mutex);
    return state_->why;
}

}  // namespace advlock::cli
