#include "session/server_waits.hpp"

namespace advlock::core {

void ServerWaits::interrupt() noexcept {
    std::lock_guard<std::mutex> guard(mutex_);
    if (running_ && interrupt_) interrupt_();
    woken_.notify_all();
}

bool ServerWaits::Wait::begin(const std::function<void()> &start) {
    std::lock_guard<std::mutex> guard(waits_.mutex_);
    if (cancelled_()) return false;
    if (start) start();
    waits_.running_ = true;
    return true;
}

bool ServerWaits::Wait::end() {
    std::lock_guard<std::mutex> guard(waits_.mutex_);  // an interrupt in flight has reached the server once this is ours
    waits_.running_ = false;
    return cancelled_();
}

bool ServerWaits::Wait::pause(std::chrono::milliseconds pause) {
    std::unique_lock<std::mutex> lock(waits_.mutex_);
    return waits_.woken_.wait_for(lock, pause, [this] { return cancelled_(); });
}

}  // namespace advlock::core
