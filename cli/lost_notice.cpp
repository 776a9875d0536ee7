#include "lost_notice.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace advlock::cli {

LostNotice::LostNotice(advlock::session &session) {
    if (::pipe2(pipe_, O_CLOEXEC | O_NONBLOCK) != 0) throw std::runtime_error("pipe2 failed");
    session.on_lost([this](const std::string &why) {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            why_ = why;
        }
        const char byte = 1;
        [[maybe_unused]] const ssize_t written = ::write(pipe_[1], &byte, 1);
    });
}

LostNotice::~LostNotice() {
    ::close(pipe_[0]);
    ::close(pipe_[1]);
}

std::string LostNotice::why() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return why_;
}

}  // namespace advlock::cli
