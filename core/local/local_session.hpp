// The host-local backend: locks are flock(2) on one file per key in a lock
// directory, for jobs that only need to exclude each other on one host, with
// no database at hand. The same LockSession contract as PostgreSQL's, with
// these differences: waits poll every 10 ms (flock has no timeout); a lock is
// lost only if its file (or the directory) is removed or replaced, which the
// watchdog notices (local_session_watchdog.cpp); one session cannot hold a key
// in both modes at once.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "local/local_lock_directory.hpp"
#include "local/lock_file.hpp"
#include "session/hold_counts.hpp"
#include "session/lock_session.hpp"
#include "session/server_waits.hpp"
#include "session/watch_loop.hpp"

namespace advlock::core {

class LocalSession final : public LockSession {
public:
    // url: "local", "local:/dir" or "file:/dir", optionally "?group=NAME".
    // heartbeat_interval_ms: how often the watchdog looks at the held files
    // when no change is reported. Throws InvalidArgument, UnsafeLockDirectory, IoError.
    static std::shared_ptr<LocalSession> open(const std::string &url, int heartbeat_interval_ms);
    ~LocalSession() override;

    bool try_lock(const LockTarget &target, LockMode mode) override;
    void unlock(const LockTarget &target, LockMode mode) override;
    // At once: this backend's mutex is never held across a wait (flock is
    // only tried; the wait polls outside it), and a deferred release would
    // keep the key in its old mode, which this backend cannot mix.
    void unlock_soon(const LockTarget &target, LockMode mode) noexcept override;
    bool lock(const LockTarget &target, LockMode mode, long long timeout_ms,
              const CancelToken *cancel = nullptr) override;
    HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) override;
    std::int64_t server_session_id() const override;
    void check() const override;
    void verify() override { check(); }
    void verify_held(const LockTarget &target, LockMode mode) override;
    long long ledger_completed(const std::string &job, const std::string &period) override;
    void ledger_record(const std::string &job, const std::string &period, const std::string &host) override;

    const std::string &directory() const { return directory_->path(); }

private:
    void cancel_server_wait() override;
    void close_connection() noexcept override;
    // The file of a held key, in its one mode (acquisitions: holds_).
    struct Held {
        LockFile file;
        LockMode mode;
    };

    class Call;

    LocalSession(std::unique_ptr<LockDirectory> directory, int heartbeat_interval_ms)
        : directory_(std::move(directory)), heartbeat_interval_ms_(heartbeat_interval_ms) {}

    // One attempt without waiting. Caller holds mutex_.
    bool attempt_locked(const Key &key, LockMode mode);
    // Declares the loss when a held lock's file or the directory was removed
    // or replaced. Caller holds mutex_.
    void scan_files_locked() const;
    // As scan_files_locked, then throws LockLost if the session is lost.
    void check_files_locked() const;
    void require_usable(const char *doing, const Key *key) const;
    // The watchdog thread's body (local_session_watchdog.cpp).
    void watch();

    const std::unique_ptr<LockDirectory> directory_;
    const int heartbeat_interval_ms_;
    mutable std::mutex mutex_;
    std::unordered_map<Key, Held, KeyHash> held_;
    HoldCounts<Key, KeyHash> holds_;
    std::chrono::steady_clock::time_point held_since_;  // when held_ last became non-empty
    WatchdogThread watchdog_;

    ServerWaits waits_;  // polled waits, cancel() and tokens meet here
};

}  // namespace advlock::core
