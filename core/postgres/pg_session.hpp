// A PostgreSQL lock session: one dedicated libpq connection, session-level
// advisory locks (try, or wait on the server with a timeout, cancellable from
// another thread), the bookkeeping that matches every release to an
// acquisition, and a watchdog thread that notices when the session's locks are
// gone (pg_session_watchdog.cpp).
//
// Every use of the connection happens under mutex_, by the user's calls or by
// the watchdog: libpq is not thread-safe per connection.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "postgres/pg_connection.hpp"
#include "postgres/pg_holders.hpp"
#include "postgres/pg_result.hpp"
#include "postgres/pg_sql.hpp"
#include "postgres/pg_timeouts.hpp"
#include "session/connection_wait.hpp"
#include "session/hold_counts.hpp"
#include "session/lock_session.hpp"
#include "session/loss_state.hpp"
#include "session/pending_unlocks.hpp"
#include "session/server_waits.hpp"
#include "session/watch_loop.hpp"

namespace advlock::core {

class Registry;

struct PgSessionOptions {
    PgConnectOptions connect;
    // The watchdog sends a heartbeat after this long without a round trip...
    int heartbeat_interval_ms = kHeartbeatIntervalDefaultMs;
    // ...and declares the session lost when the answer takes longer than this.
    int heartbeat_deadline_ms = kHeartbeatDeadlineDefaultMs;
    // How long after the loss is reported the holder may still be doing its
    // work (`advlock run`: its --kill-grace); the server waits that much longer.
    int stop_grace_ms = kStopGraceDefaultMs;
    // connect.silence_limit_s is derived from the three by open().
    HeartbeatSettings heartbeat() const { return {heartbeat_interval_ms, heartbeat_deadline_ms, stop_grace_ms}; }
};

class PgSession final : public LockSession {
public:
    // Throws ConnectError, one of the unsafe-target errors, or InvalidArgument
    // for heartbeat settings that would not undercut the server's own timeout.
    static std::shared_ptr<PgSession> open(const std::string &url, const PgSessionOptions &options);
    ~PgSession() override;

    bool try_lock(const LockTarget &target, LockMode mode) override;
    void unlock(const LockTarget &target, LockMode mode) override;
    void unlock_soon(const LockTarget &target, LockMode mode) noexcept override;
    // lock_timeout + pg_advisory_lock in one round trip; after a failed wait,
    // pg_advisory_unlock releases a lock granted in the race.
    bool lock(const LockTarget &target, LockMode mode, long long timeout_ms,
              const CancelToken *cancel = nullptr) override;
    // The same round trips, with public.advlock_fence_next in the statement.
    bool try_lock_fenced(const LockTarget &target, std::int64_t &token) override;
    bool lock_fenced(const LockTarget &target, long long timeout_ms, const CancelToken *cancel,
                     std::int64_t &token) override;
    // Sets in one statement each (pg_session_sets.cpp, pg_lock_set_sql.hpp).
    bool try_lock_all(const std::vector<LockTarget> &targets, LockMode mode) override;
    bool lock_all(const std::vector<LockTarget> &targets, LockMode mode, long long timeout_ms,
                  const CancelToken *cancel) override;
    void unlock_all(const std::vector<LockTarget> &targets, LockMode mode) override;
    HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) override;
    std::int64_t server_session_id() const override { return identity_.backend_pid; }
    void check() const override;
    void verify() override;
    void verify_held(const LockTarget &target, LockMode mode) override;
    long long ledger_completed(const std::string &job, const std::string &period) override;
    void ledger_record(const std::string &job, const std::string &period, const std::string &host) override;

    // Acquisitions this session counts for the key and mode (0 when not held).
    int hold_count(const Key &key, LockMode mode) const;

    // Tests only: run SQL on the lock connection, as a misbehaving pooler or
    // program might (DISCARD ALL, pg_advisory_unlock_all...).
    void run_sql_for_tests(const std::string &sql);

private:
    void cancel_server_wait() override;
    void close_connection() noexcept override;
    class Call;

    PgSession(PgConnection connection, const PgSessionOptions &options);

    // token: NULL for a plain lock, else where the fenced grant's token goes.
    bool try_lock_locked(const Key &key, LockMode mode, std::int64_t *token = nullptr);
    bool try_fenced_locked(const Key &key, std::int64_t &token);
    bool lock_waiting(const LockTarget &target, LockMode mode, long long timeout_ms, const CancelToken *cancel,
                      std::int64_t *token);
    // One release: Misuse when not held, LockLost when the server says it was
    // not. Caller holds mutex_.
    void unlock_locked(const Key &key, LockMode mode);
    // The releases unlock_soon left, run by whoever has the connection next
    // (any call, or the watchdog). Caller holds mutex_.
    void run_pending_unlocks_locked() noexcept;
    // The set statements (pg_session_sets.cpp). Caller holds mutex_.
    bool try_all_locked(const std::vector<Key> &keys, LockMode mode);
    bool wait_all_locked(const std::vector<Key> &keys, LockMode mode, long long timeout_ms,
                         const WaitCancelled &cancelled, const CancelToken *cancel);
    PgResult run_set_statement(int which, LockMode mode, const std::vector<Key> &keys);
    // Runs one prepared boolean lock function. Caller holds mutex_.
    bool call(LockFunction function, const Key &key, LockMode mode);
    [[noreturn]] void fail(const PGresult *result, const std::string &doing);
    // PermissionDenied as well when the role may not lock (see ServerIdentity).
    void require_lock_rights(const char *doing, const Key &key) const;
    void require_usable(const char *doing, const Key *key) const;

    // Loss detection (pg_session_watchdog.cpp).
    void start_watchdog();
    void watch();
    void consume_input_locked();
    void heartbeat_locked();
    void declare_lost(const std::string &why, const std::string &sqlstate = {});
    void connection_failed_locked();
    static void on_notice(void *self, const PGresult *notice);

    mutable std::mutex mutex_;  // every use of connection_
    PgConnection connection_;
    const ServerIdentity identity_;
    const std::chrono::milliseconds heartbeat_interval_, heartbeat_deadline_;
    const int silence_limit_s_;  // when the server drops a silent client (for messages)
    bool prepared_[kLockFunctionCount][2][2] = {};  // prepared statements: function x mode x key space
    bool prepared_sets_[2][2] = {};  // the set statements: try-all / unlock-all x mode
    HoldCounts<Key, KeyHash> holds_;
    PendingUnlocks pending_unlocks_;

    ServerWaits server_waits_;  // cancel() and lock() meet here

    WatchdogThread watchdog_;
};

}  // namespace advlock::core
