#include "postgres/pg_session.hpp"
#include "postgres/pg_result.hpp"

#include <array>
#include <cstring>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_errors.hpp"
#include "postgres/pg_fence.hpp"
#include "postgres/pg_run_ledger.hpp"
#include "postgres/pg_session_call.hpp"
#include "session/connection_wait.hpp"
#include "session/heartbeat_settings.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

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

// "advlock_<function>_<mode>_<space>": built once, not on every call (the
// lock cycle is the hot path).
const char *statement_name(int function, std::size_t mode, int space) {
    static const auto names = [] {
        std::array<std::string, kLockFunctionCount * 4> all;
        for (int f = 0; f < kLockFunctionCount; ++f) {
            for (int m = 0; m < 2; ++m) {
                for (int k = 0; k < 2; ++k) {
                    all[(f * 2 + m) * 2 + k] = "advlock_" + std::to_string(f) + "_" + std::to_string(m) + "_" +
                                                 std::to_string(k);
                }
            }
        }
        return all;
    }();
    return names[(function * 2 + mode) * 2 + static_cast<std::size_t>(space)].c_str();
}

std::string describe(const char *doing, const Key &key, LockMode mode) {
    return std::string(doing) + " " + format_key(key) + (mode == LockMode::Shared ? " (shared)" : "");
}

// One simple-protocol query (an implicit transaction, so SET LOCAL lasts just
// for it) that waits for the lock with the server's own timer: no polling.
// Fenced, it then issues the next token, whose row wait (an older holder's
// checked transaction) the same lock_timeout bounds.
std::string wait_sql(const Key &key, LockMode mode, long long timeout_ms, bool fenced) {
    const std::string timeout = timeout_ms < 0 ? "0" : std::to_string(timeout_ms) + "ms";
    return "SET LOCAL lock_timeout = '" + timeout + "'; SET LOCAL statement_timeout = 0; " +
           sql_with_literals(LockFunction::Lock, mode, key) +
           (fenced ? "; SELECT " + fence_next_sql(key, false) : std::string());
}

}  // namespace

PgSession::PgSession(PgConnection connection, const PgSessionOptions &options)
    : connection_(std::move(connection)),
      identity_(connection_.identity()),
      heartbeat_interval_(options.heartbeat_interval_ms),
      heartbeat_deadline_(options.heartbeat_deadline_ms),
      silence_limit_s_(server_silence_limit_s(options.heartbeat())),
      server_waits_([this] { connection_.cancel_running_statement(nullptr); }) {}

std::shared_ptr<PgSession> PgSession::open(const std::string &url, const PgSessionOptions &options) {
    validate_heartbeat(options.heartbeat());
    PgConnectOptions connect = options.connect;
    connect.silence_limit_s = server_silence_limit_s(options.heartbeat());
    std::shared_ptr<PgSession> session(new PgSession(PgConnection::open(url, connect), options));
    session->start_watchdog();
    return session;
}

PgSession::~PgSession() { close(); }

void PgSession::close_connection() noexcept {
    watchdog_.stop();
    std::lock_guard<std::mutex> guard(mutex_);  // calls in progress leave the connection first
    connection_.close();
    holds_.clear();
    pending_unlocks_.take();  // closing released them
}

int PgSession::hold_count(const Key &key, LockMode mode) const {
    std::lock_guard<std::mutex> guard(mutex_);
    return holds_.count(key, mode);
}

void PgSession::require_usable(const char *doing, const Key *key) const {
    const auto what = [&] { return std::string(doing) + (key ? " " + format_key(*key) : std::string()); };
    if (is_closed() || !connection_) throw Misuse(what() + ": the session is closed; open a new one");
    if (loss_.lost()) loss_.throw_lost(what());
}

void PgSession::require_lock_rights(const char *doing, const Key &key) const {
    require_usable(doing, &key);
    if (!identity_.lock_rights_missing.empty()) {
        throw PermissionDenied(std::string(doing) + " " + format_key(key) + ": " + identity_.lock_rights_missing,
                               "42501");
    }
}

void PgSession::check() const { require_usable("check", nullptr); }

void PgSession::fail(const PGresult *result, const std::string &doing) {
    PGconn *conn = connection_.get();
    if (PQstatus(conn) == CONNECTION_BAD) {
        connection_failed_locked();
        loss_.throw_lost(doing);
    }
    const char *sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    if (sqlstate && std::strcmp(sqlstate, "26000") == 0) {
        declare_lost(kStatementsVanished, sqlstate);
        loss_.throw_lost(doing);
    }
    throw_pg_error(conn, result, doing, false, connection_.secrets());
}

bool PgSession::try_lock(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_lock_rights("try_lock", key);
    return try_lock_locked(key, mode);
}

bool PgSession::try_lock_locked(const Key &key, LockMode mode, std::int64_t *token) {
    if (token) return try_fenced_locked(key, *token);
    if (!call(LockFunction::TryLock, key, mode)) return false;
    holds_.add(key, mode);
    return true;
}

bool PgSession::try_lock_fenced(const LockTarget &target, std::int64_t &token) {
    const Key &key = target.key();
    Call scope(*this);
    require_lock_rights("try_lock", key);
    return try_fenced_locked(key, token);
}

// One statement: the try, and only when it is granted, the token (a CASE
// evaluates its THEN branch only when its condition holds).
bool PgSession::try_fenced_locked(const Key &key, std::int64_t &token) {
    const std::string doing = describe("try_lock (fenced)", key, LockMode::Exclusive);
    const std::string sql = "SELECT CASE WHEN " + call_with_literals(LockFunction::TryLock, LockMode::Exclusive, key) +
                            " THEN " + fence_next_sql(key, true) + " END";
    PGconn *conn = connection_.get();
    PgResult result(PQexec(conn, sql.c_str()));
    if (result && PQresultStatus(result.get()) == PGRES_TUPLES_OK && PQntuples(result.get()) == 1) {
        if (PQgetisnull(result.get(), 0, 0)) return false;
        token = std::stoll(PQgetvalue(result.get(), 0, 0));
        holds_.add(key, LockMode::Exclusive);
        return true;
    }
    if (PQstatus(conn) == CONNECTION_BAD) fail(result.get(), doing);
    // The token failed after the grant, which a failed statement does not
    // undo for a session lock: release it, so no failed try leaves a lock.
    call(LockFunction::Unlock, key, LockMode::Exclusive);
    const std::string sqlstate = sqlstate_of(result.get());
    // An older holder's checked transaction still holds the token's row: its
    // work is not committed yet, so the lock is not free for new work.
    if (sqlstate == "55P03") return false;
    throw_if_fence_missing(sqlstate, doing);
    fail(result.get(), doing);
}

void PgSession::unlock(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_usable("unlock", &key);
    unlock_locked(key, mode);
}

void PgSession::unlock_soon(const LockTarget &target, LockMode mode) noexcept {
    if (is_closed() || loss_.lost()) return;
    pending_unlocks_.add(target, mode);
    watchdog_.signals().wake();
}

void PgSession::run_pending_unlocks_locked() noexcept {
    if (pending_unlocks_.empty()) return;
    for (const auto &[target, mode] : pending_unlocks_.take()) {
        if (!connection_ || loss_.lost()) return;  // the close or the loss released them all
        try {
            unlock_locked(target.key(), mode);
        } catch (...) {
            // Nobody to tell: a loss it found is recorded, and the next call reports it.
        }
    }
}

void PgSession::unlock_locked(const Key &key, LockMode mode) {
    if (holds_.remove(key, mode) < 0) {
        throw Misuse(describe("unlock", key, mode) + ": this session does not hold that lock in that mode");
    }
    if (!call(LockFunction::Unlock, key, mode)) {
        declare_lost("the server says the session no longer held lock " + format_key(key) +
                     ": it was released behind advlock's back (pg_advisory_unlock_all or DISCARD ALL on the "
                     "lock connection), so the work done since may have overlapped another holder");
        loss_.throw_lost(describe("unlock", key, mode));
    }
}

bool PgSession::lock(const LockTarget &target, LockMode mode, long long timeout_ms, const CancelToken *cancel) {
    return lock_waiting(target, mode, timeout_ms, cancel, nullptr);
}

bool PgSession::lock_fenced(const LockTarget &target, long long timeout_ms, const CancelToken *cancel,
                            std::int64_t &token) {
    return lock_waiting(target, LockMode::Exclusive, timeout_ms, cancel, &token);
}

bool PgSession::lock_waiting(const LockTarget &target, LockMode mode, long long timeout_ms, const CancelToken *cancel,
                             std::int64_t *token) {
    const Key &key = target.key();
    const auto started = std::chrono::steady_clock::now();
    const WaitCancelled cancelled(*this, cancel);
    auto connection = connection_for_wait(mutex_, timeout_ms, started, cancelled, describe("lock", key, mode));
    if (!connection) return false;
    Call scope(*this, std::move(*connection));
    require_lock_rights("lock", key);
    timeout_ms = remaining_ms(timeout_ms, started);
    // A lock this session already holds in this mode is granted without a
    // wait, and a try keeps the reconciliation below unambiguous.
    if (timeout_ms == 0 || holds_.count(key, mode) > 0) return try_lock_locked(key, mode, token);

    PGconn *conn = connection_.get();
    const std::string doing = describe("lock", key, mode);
    // Ends before the next user of the connection can start a statement.
    ServerWaits::Wait wait(server_waits_, cancelled, cancel);
    const bool began = wait.begin([&] {
        if (!PQsendQuery(conn, wait_sql(key, mode, timeout_ms, token != nullptr).c_str())) fail(nullptr, doing);
    });
    if (!began) throw_wait_ended(doing, ": cancelled before the wait began");
    int rows_answered = 0;  // the lock's, then the token's when fenced
    PgResult error;
    while (PGresult *raw = PQgetResult(conn)) {
        PgResult result(raw);
        if (PQresultStatus(raw) == PGRES_TUPLES_OK) {
            if (++rows_answered == 2 && token && PQntuples(raw) == 1 && !PQgetisnull(raw, 0, 0)) {
                *token = std::stoll(PQgetvalue(raw, 0, 0));
            }
        } else if (PQresultStatus(raw) != PGRES_COMMAND_OK && !error) {
            error = std::move(result);
        }
    }
    wait.end();  // the server's answer says whether it was cancelled (57014)
    if (rows_answered == (token ? 2 : 1) && !error) {
        holds_.add(key, mode);
        return true;
    }
    if (PQstatus(conn) == CONNECTION_BAD) fail(error.get(), doing);

    // PostgreSQL may grant the lock just as the wait fails (a timeout or cancel
    // racing the grant): release it if so, so no failed wait leaves a lock behind.
    const bool granted_in_race = call(LockFunction::Unlock, key, mode);
    const std::string sqlstate = sqlstate_of(error.get());
    if (sqlstate == "55P03") return false;  // lock_not_available: the timeout
    if (token) throw_if_fence_missing(sqlstate, doing);
    if (sqlstate == "57014") {
        throw_wait_ended(doing,
                         std::string(": the wait was cancelled") +
                             (granted_in_race ? " (the lock, granted at that moment, was released again)" : ""),
                         sqlstate);
    }
    fail(error.get(), doing);
}

void PgSession::cancel_server_wait() { server_waits_.interrupt(); }

HolderList PgSession::holders(const Registry *registry, const std::optional<LockTarget> &only) {
    Call scope(*this);
    require_usable("holders", nullptr);
    const std::optional<Key> only_key = only ? std::optional<Key>(only->key()) : std::nullopt;
    return {list_holders(connection_.get(), registry, only_key, identity_.backend_pid, connection_.secrets()), {}};
}

void PgSession::verify() {
    Call scope(*this);
    require_usable("verify", nullptr);
    heartbeat_locked();
    if (loss_.lost()) loss_.throw_lost("verify");
}

void PgSession::verify_held(const LockTarget &target, LockMode mode) {
    const Key &key = target.key();
    Call scope(*this);
    require_usable("verify", &key);
    if (holds_.count(key, mode) == 0) {
        throw Misuse(describe("verify", key, mode) + ": this session does not hold that lock in that mode");
    }
    heartbeat_locked();
    if (loss_.lost()) loss_.throw_lost(describe("verify", key, mode));
    std::vector<Holder> rows =
        list_holders(connection_.get(), nullptr, key, identity_.backend_pid, connection_.secrets());
    for (const Holder &row : rows) {
        if (row.is_self && row.granted && row.mode == mode) return;
    }
    declare_lost("lock " + format_key(key) + " is missing from the server's lock table (pg_locks) although the "
                 "session took it: it was released behind advlock's back");
    loss_.throw_lost(describe("verify", key, mode));
}

long long PgSession::ledger_completed(const std::string &job, const std::string &period) {
    Call scope(*this);
    require_usable("ledger", nullptr);
    return core::ledger_completed(connection_.get(), job, period, connection_.secrets());
}

void PgSession::ledger_record(const std::string &job, const std::string &period, const std::string &host) {
    Call scope(*this);
    require_usable("ledger", nullptr);
    core::ledger_record(connection_.get(), job, period, host, connection_.secrets());
}

void PgSession::run_sql_for_tests(const std::string &sql) {
    Call scope(*this);
    require_usable("run_sql_for_tests", nullptr);
    PgResult result(PQexec(connection_.get(), sql.c_str()));
}

bool PgSession::call(LockFunction function, const Key &key, LockMode mode) {
    PGconn *conn = connection_.get();
    const int space = key.is_pair() ? 1 : 0;
    const int fn = static_cast<int>(function);
    const char *name = statement_name(fn, mode_index(mode), space);
    const auto failed = [&](const PGresult *result) {
        fail(result, describe(function == LockFunction::Unlock ? "unlock" : "try_lock", key, mode));
    };

    if (!prepared_[fn][mode_index(mode)][space]) {
        const std::string sql = sql_with_parameters(function, mode, key.space());
        PgResult prepared(PQprepare(conn, name, sql.c_str(), 0, nullptr));
        if (!prepared || PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) failed(prepared.get());
        prepared_[fn][mode_index(mode)][space] = true;
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
    PgResult result(PQexecPrepared(conn, name, key.is_pair() ? 2 : 1, values, lengths, formats, /*resultFormat=*/0));
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1) {
        failed(result.get());
    }
    return std::strcmp(PQgetvalue(result.get(), 0, 0), "t") == 0;
}

}  // namespace advlock::core
