// A MySQL / MariaDB lock session: one dedicated Connector/C connection,
// GET_LOCK / RELEASE_LOCK user locks by name (mysql_lock_name.hpp), waits with
// the server's own timer (cancellable from another thread by KILL QUERY), the
// same bookkeeping as PostgreSQL's, every RELEASE_LOCK answer checked, and a
// watchdog thread (mysql_session_watchdog.cpp) that notices when the locks are
// gone: the socket closing (KILL CONNECTION sends no error packet), wait_timeout,
// a restart, or a heartbeat unanswered within its deadline.
//
// Differences from PostgreSQL, by the server's design: no shared mode, no
// run ledger, and holders are listed only as far as the server shows them.
// Every use of the connection happens under mutex_.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "mysql/mysql_connection.hpp"
#include "session/hold_counts.hpp"
#include "session/lock_session.hpp"
#include "session/loss_state.hpp"
#include "session/pending_unlocks.hpp"
#include "session/server_waits.hpp"
#include "session/watch_loop.hpp"

namespace advlock::core {

struct MysqlSessionOptions {
    MysqlConnectOptions connect;
    int heartbeat_interval_ms = kHeartbeatIntervalDefaultMs;
    int heartbeat_deadline_ms = kHeartbeatDeadlineDefaultMs;
    int stop_grace_ms = kStopGraceDefaultMs;  // as PgSessionOptions::stop_grace_ms
    HeartbeatSettings heartbeat() const { return {heartbeat_interval_ms, heartbeat_deadline_ms, stop_grace_ms}; }
};

class MysqlSession final : public LockSession {
public:
    // Throws InvalidArgument (URL, heartbeat settings), ConnectError,
    // ReadOnlyTarget or ClusterTarget.
    static std::shared_ptr<MysqlSession> open(const std::string &url, const MysqlSessionOptions &options);
    ~MysqlSession() override;

    bool try_lock(const LockTarget &target, LockMode mode) override;
    void unlock(const LockTarget &target, LockMode mode) override;
    void unlock_soon(const LockTarget &target, LockMode mode) noexcept override;
    // GET_LOCK(name, seconds) with the remaining time, fractions included; a
    // wait without limit is a series of long waits (MariaDB refuses negative ones).
    bool lock(const LockTarget &target, LockMode mode, long long timeout_ms,
              const CancelToken *cancel = nullptr) override;
    HolderList holders(const Registry *registry, const std::optional<LockTarget> &only) override;
    std::int64_t server_session_id() const override { return static_cast<std::int64_t>(connection_id_); }
    void check() const override;
    void verify() override;
    void verify_held(const LockTarget &target, LockMode mode) override;
    long long ledger_completed(const std::string &job, const std::string &period) override;
    void ledger_record(const std::string &job, const std::string &period, const std::string &host) override;

    // The text GET_LOCK receives for the target (scope included).
    std::string lock_name(const LockTarget &target) const { return mysql_lock_name_of(target); }
    // The lock name in ASCII lower case: MySQL compares lock names ignoring
    // case, so two spellings must not become two owners of one lock here.
    std::string owner_key(const LockTarget &target) const override;
    // Sets are taken in ascending order of that lower-cased name.
    bool takes_before(const LockTarget &a, const LockTarget &b) const override {
        return owner_key(a) < owner_key(b);
    }

    // Tests only: run SQL on the lock connection (SET SESSION wait_timeout...).
    void run_sql_for_tests(const std::string &sql);

private:
    void cancel_server_wait() override;
    void close_connection() noexcept override;
    class Call;

    MysqlSession(MysqlConnection connection, const MysqlSessionOptions &options);

    std::string mysql_lock_name_of(const LockTarget &target) const;
    // Throws Misuse after close, LockLost after a loss, Unsupported for shared mode.
    void require_usable(const char *doing, const LockTarget *target, LockMode mode) const;
    // One statement of the lock cycle answering one value; a failure throws
    // (fail) with what the call was doing, built only then.
    std::optional<std::string> value_of(const std::string &sql, const char *doing, const LockTarget &target);
    bool get_lock_locked(const std::string &name, const char *seconds, const LockTarget &target, const char *doing);
    // A failed statement: LockLost when the connection is gone, else the mapped error.
    [[noreturn]] void fail(const std::string &doing);
    // One release, as PgSession's. Caller holds mutex_.
    void unlock_locked(const LockTarget &target);
    // The releases unlock_soon left (PendingUnlocks). Caller holds mutex_.
    void run_pending_unlocks_locked() noexcept;

    // Loss detection (mysql_session_watchdog.cpp).
    void start_watchdog();
    void watch();
    void heartbeat_locked();
    void socket_readable_locked();
    void declare_lost(const std::string &why, const std::string &sqlstate = {});

    mutable std::mutex mutex_;  // every use of connection_
    MysqlConnection connection_;
    const unsigned long connection_id_;
    const std::chrono::milliseconds heartbeat_interval_, heartbeat_deadline_;
    const int silence_limit_s_;  // the server's wait_timeout (for messages)
    HoldCounts<std::string> holds_;  // by lock name, always exclusive
    PendingUnlocks pending_unlocks_;

    ServerWaits server_waits_;  // cancel() and lock() meet here

    WatchdogThread watchdog_;
};

}  // namespace advlock::core
