// The host-local backend: locks are flock(2) on one file per key in a lock
// directory, for jobs that only need to exclude each other on one host, with
// no database at hand. The same LockSession contract as PostgreSQL's, with
// these differences: waits poll every 10 ms (flock has no timeout); a lock is
// lost only if its file is removed or replaced, which check() and verify()
// notice; one session cannot hold a key in both modes at once.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <unordered_map>

#include "session/lock_session.hpp"

namespace advlock::core {

class LocalSession final : public LockSession {
public:
    // url: "local", "local:/dir" or "file:/dir". Throws InvalidArgument, IoError.
    static std::shared_ptr<LocalSession> open(const std::string &url);
    ~LocalSession() override;

    bool try_lock(const LockTarget &target, LockMode mode) override;
    void unlock(const LockTarget &target, LockMode mode) override;
    bool lock(const LockTarget &target, LockMode mode, long long timeout_ms) override;
    void cancel() override;
    HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) override;
    int server_session_id() const override;
    void check() const override;
    void verify() override { check(); }
    void verify_held(const LockTarget &target, LockMode mode) override;
    void set_lost_callback(LossState::Callback callback) override { loss_.set_callback(std::move(callback)); }
    long long ledger_completed(const std::string &job, const std::string &period) override;
    void ledger_record(const std::string &job, const std::string &period, const std::string &host) override;
    void close() noexcept override;
    bool is_closed() const override { return closed_.load(); }

    const std::string &directory() const { return directory_; }

private:
    struct Held {
        int fd;
        dev_t device;
        ino_t inode;
        LockMode mode;
        int count;
    };

    class Call;

    explicit LocalSession(std::string directory) : directory_(std::move(directory)) {}

    // One attempt without waiting. Caller holds mutex_.
    bool attempt_locked(const Key &key, LockMode mode);
    // Throws LockLost (after declaring it) when a held lock's file was removed or
    // replaced. The callback fires when the Call ends, outside mutex_.
    void check_files_locked() const;
    void require_usable(const char *doing, const Key *key) const;

    const std::string directory_;
    mutable std::mutex mutex_;
    std::unordered_map<Key, Held, KeyHash> held_;
    mutable LossState loss_;
    std::atomic<bool> closed_{false};

    std::mutex wait_mutex_;
    std::condition_variable wait_cv_;
    bool cancel_requested_ = false;
};

}  // namespace advlock::core
