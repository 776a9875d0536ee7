#include "postgres/pg_session.hpp"

#include <cstring>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_errors.hpp"

namespace advlock::core {

namespace {

struct ResultDeleter {
    void operator()(PGresult *result) const { PQclear(result); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// Big-endian bytes of an integer, as PostgreSQL's binary format wants them.
template <typename T>
void put_big_endian(char *out, T value) {
    auto bits = static_cast<std::make_unsigned_t<T>>(value);
    for (int i = static_cast<int>(sizeof(T)) - 1; i >= 0; --i) {
        out[i] = static_cast<char>(bits & 0xFF);
        bits >>= 8;
    }
}

std::size_t mode_index(LockMode mode) { return mode == LockMode::Shared ? 1 : 0; }

}  // namespace

std::shared_ptr<PgSession> PgSession::open(const std::string &url, const PgConnectOptions &options) {
    return std::shared_ptr<PgSession>(new PgSession(PgConnection::open(url, options)));
}

bool PgSession::is_closed() const {
    std::lock_guard<std::mutex> guard(mutex_);
    return !connection_;
}

void PgSession::close() noexcept {
    std::lock_guard<std::mutex> guard(mutex_);
    connection_.close();
    holds_[0].clear();
    holds_[1].clear();
}

int PgSession::hold_count(const Key &key, LockMode mode) const {
    std::lock_guard<std::mutex> guard(mutex_);
    const auto &holds = holds_[mode_index(mode)];
    const auto it = holds.find(key);
    return it == holds.end() ? 0 : it->second;
}

void PgSession::require_open(const Key &key, const char *doing) const {
    if (!connection_) {
        throw Misuse(std::string(doing) + " " + format_key(key) + ": the session is closed; open a new one");
    }
}

bool PgSession::holds_any_lock() const { return !holds_[0].empty() || !holds_[1].empty(); }

bool PgSession::try_lock(const Key &key, LockMode mode) {
    std::lock_guard<std::mutex> guard(mutex_);
    require_open(key, "try_lock");
    if (!call(LockCall::TryLock, key, mode)) return false;
    ++holds_[mode_index(mode)][key];
    return true;
}

void PgSession::unlock(const Key &key, LockMode mode) {
    std::lock_guard<std::mutex> guard(mutex_);
    require_open(key, "unlock");
    auto &holds = holds_[mode_index(mode)];
    const auto it = holds.find(key);
    if (it == holds.end()) {
        throw Misuse("unlock " + format_key(key) + " (" + mode_name(mode) +
                     "): this session does not hold that lock in that mode");
    }
    if (--it->second == 0) holds.erase(it);
    if (!call(LockCall::Unlock, key, mode)) {
        throw LockLost("unlock " + format_key(key) + " (" + mode_name(mode) +
                       "): the server says this session no longer held the lock, so it was lost "
                       "earlier (released behind advlock's back by pg_advisory_unlock_all or DISCARD ALL, "
                       "or the server restarted); the work done since may have overlapped another holder");
    }
}

bool PgSession::call(LockCall what, const Key &key, LockMode mode) {
    PGconn *conn = connection_.get();
    const PgStatement &statement = kPgStatements[statement_index(what, mode, key.space())];
    const std::string doing = std::string(what == LockCall::TryLock ? "try_lock " : "unlock ") + format_key(key);
    const auto fail = [&](const PGresult *result) {
        throw_pg_error(conn, result, doing, holds_any_lock() || what == LockCall::Unlock, connection_.secrets());
    };

    const int index = statement_index(what, mode, key.space());
    if (!prepared_[index]) {
        Result prepared(PQprepare(conn, statement.name, statement.sql, 0, nullptr));
        if (!prepared || PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) fail(prepared.get());
        prepared_[index] = true;
    }

    char buffers[2][8];
    const char *values[2] = {buffers[0], buffers[1]};
    int lengths[2];
    const int formats[2] = {1, 1};
    if (key.is_pair()) {
        put_big_endian(buffers[0], key.k1());
        put_big_endian(buffers[1], key.k2());
        lengths[0] = lengths[1] = 4;
    } else {
        put_big_endian(buffers[0], key.bigint_value());
        lengths[0] = 8;
    }
    Result result(PQexecPrepared(conn, statement.name, statement.parameter_count, values, lengths, formats,
                                 /*resultFormat=*/0));
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1) {
        fail(result.get());
    }
    return std::strcmp(PQgetvalue(result.get(), 0, 0), "t") == 0;
}

}  // namespace advlock::core
