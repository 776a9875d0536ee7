// A PostgreSQL lock session: one dedicated libpq connection, session-level
// advisory locks (try, or wait on the server with a timeout, cancellable from
// another thread), and the bookkeeping that matches every release to an
// acquisition.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "postgres/pg_connection.hpp"
#include "postgres/pg_holders.hpp"
#include "postgres/pg_sql.hpp"
#include "session/lock_session.hpp"

namespace advlock::core {

class Registry;

class PgSession final : public LockSession {
public:
    // Throws ConnectError or one of the unsafe-target errors.
    static std::shared_ptr<PgSession> open(const std::string &url, const PgConnectOptions &options);

    bool try_lock(const Key &key, LockMode mode) override;
    void unlock(const Key &key, LockMode mode) override;
    void close() noexcept override;
    bool is_closed() const override;

    // lock_timeout + pg_advisory_lock in one round trip; after a failed wait,
    // pg_advisory_unlock releases a lock granted in the race.
    bool lock(const Key &key, LockMode mode, long long timeout_ms) override;
    void cancel() override;
    std::vector<Holder> holders(const Registry *registry, const std::optional<Key> &only_key) override;
    int server_session_id() const override { return backend_pid_; }

    // Acquisitions this session counts for the key and mode (0 when not held).
    int hold_count(const Key &key, LockMode mode) const;

private:
    explicit PgSession(PgConnection connection);

    bool try_lock_locked(const Key &key, LockMode mode);
    // Runs one prepared boolean lock function. Caller holds mutex_.
    bool call(LockFunction function, const Key &key, LockMode mode);
    [[noreturn]] void fail(const PGresult *result, const std::string &doing, bool unlocking);
    void require_open(const Key &key, const char *doing) const;
    bool holds_any_lock() const;
    int count_locked(const Key &key, LockMode mode) const;

    mutable std::mutex mutex_;  // libpq is not thread-safe per connection
    PgConnection connection_;
    const int backend_pid_;
    // Prepared statements, by function x mode x key space.
    bool prepared_[kLockFunctionCount][2][2] = {};
    std::unordered_map<Key, int, KeyHash> holds_[2];  // acquisitions, by mode then key

    // cancel() and lock() meet here; never held while waiting for mutex_.
    std::mutex wait_mutex_;
    bool waiting_ = false;
    bool cancel_requested_ = false;
};

}  // namespace advlock::core
