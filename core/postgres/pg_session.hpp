// A PostgreSQL lock session: one dedicated libpq connection, session-level
// advisory locks, and the bookkeeping that matches every release to an
// acquisition.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>

#include "postgres/pg_connection.hpp"
#include "postgres/pg_statements.hpp"
#include "session/lock_session.hpp"

namespace advlock::core {

class PgSession final : public LockSession {
public:
    // Throws ConnectError.
    static std::shared_ptr<PgSession> open(const std::string &url, const PgConnectOptions &options);

    bool try_lock(const Key &key, LockMode mode) override;
    void unlock(const Key &key, LockMode mode) override;
    void close() noexcept override;
    bool is_closed() const override;

    // Acquisitions this session counts for the key and mode (0 when not held).
    int hold_count(const Key &key, LockMode mode) const;

private:
    explicit PgSession(PgConnection connection) : connection_(std::move(connection)) {}

    // Runs one prepared lock statement and returns its boolean. Caller holds mutex_.
    bool call(LockCall call, const Key &key, LockMode mode);
    void require_open(const Key &key, const char *doing) const;
    bool holds_any_lock() const;

    mutable std::mutex mutex_;  // libpq is not thread-safe per connection
    PgConnection connection_;
    bool prepared_[kPgStatementCount] = {};
    std::unordered_map<Key, int, KeyHash> holds_[2];  // acquisitions, by mode then key
};

}  // namespace advlock::core
