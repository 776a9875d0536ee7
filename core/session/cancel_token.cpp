#include "session/cancel_token.hpp"

namespace advlock::core {

void CancelToken::cancel() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (cancelled_.exchange(true, std::memory_order_acq_rel)) return;
    for (auto &entry : actions_) entry.second();
}

CancelToken::Watch::Watch(const CancelToken *token, std::function<void()> action)
    : token_(token) {
    if (!token_) return;
    std::lock_guard<std::mutex> guard(token_->mutex_);
    if (token_->cancelled()) {
        action();
        return;
    }
    id_ = token_->next_id_++;
    token_->actions_.emplace(id_, std::move(action));
}

CancelToken::Watch::~Watch() {
    if (!token_ || id_ == 0) return;
    std::lock_guard<std::mutex> guard(token_->mutex_);
    token_->actions_.erase(id_);
}

}  // namespace advlock::core
