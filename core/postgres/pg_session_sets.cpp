// PgSession's sets of locks: one statement per step whatever the set's size
// (pg_lock_set_sql.hpp), with the same bookkeeping as single locks.
#include <cstring>

#include "error.hpp"
#include "keys/key_text.hpp"
#include "postgres/pg_lock_set_sql.hpp"
#include "postgres/pg_session.hpp"
#include "postgres/pg_session_call.hpp"

namespace advlock::core {

namespace {

enum SetStatement { kTryAll = 0, kUnlockAll = 1 };

std::vector<Key> keys_of(const std::vector<LockTarget> &targets) {
    if (targets.empty()) throw InvalidArgument("a set of locks needs at least one lock");
    std::vector<Key> keys;
    keys.reserve(targets.size());
    for (const LockTarget &target : targets) keys.push_back(target.key());
    return keys;
}

// "lock {5, 1:2} (shared)"
std::string describe_set(const char *doing, const std::vector<Key> &keys, LockMode mode) {
    std::string text = std::string(doing) + " {";
    for (std::size_t i = 0; i < keys.size(); ++i) text += (i ? ", " : "") + format_key(keys[i]);
    return text + "}" + (mode == LockMode::Shared ? " (shared)" : "");
}

}  // namespace

PgResult PgSession::run_set_statement(int which, LockMode mode, const std::vector<Key> &keys) {
    PGconn *conn = connection_.get();
    const int m = mode == LockMode::Shared ? 1 : 0;
    static const char *const names[2][2] = {{"advlock_set_try", "advlock_set_try_shared"},
                                            {"advlock_set_unlock", "advlock_set_unlock_shared"}};
    const char *name = names[which][m];
    const std::string doing = describe_set(which == kTryAll ? "try_lock" : "unlock", keys, mode);
    if (!prepared_sets_[which][m]) {
        const std::string sql = which == kTryAll ? try_all_sql(mode) : unlock_all_sql(mode);
        PgResult prepared(PQprepare(conn, name, sql.c_str(), 0, nullptr));
        if (!prepared || PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) fail(prepared.get(), doing);
        prepared_sets_[which][m] = true;
    }
    const KeyArrays arrays = key_arrays(keys);
    const char *values[3] = {arrays.bigints.c_str(), arrays.firsts.c_str(), arrays.seconds.c_str()};
    PgResult result(PQexecPrepared(conn, name, 3, values, nullptr, nullptr, 0));
    if (!result || PQresultStatus(result.get()) != PGRES_TUPLES_OK || PQntuples(result.get()) != 1) {
        fail(result.get(), doing);
    }
    return result;
}

bool PgSession::try_lock_all(const std::vector<LockTarget> &targets, LockMode mode) {
    const std::vector<Key> keys = keys_of(targets);
    Call scope(*this);
    require_lock_rights("try_lock", keys.front());
    return try_all_locked(keys, mode);
}

bool PgSession::try_all_locked(const std::vector<Key> &keys, LockMode mode) {
    // One key: the single lock's prepared call, cheaper than the set's statement.
    if (keys.size() == 1) return try_lock_locked(keys.front(), mode);
    const PgResult result = run_set_statement(kTryAll, mode, keys);
    if (std::strcmp(PQgetvalue(result.get(), 0, 0), "t") != 0) return false;
    for (const Key &key : keys) holds_.add(key, mode);
    return true;
}

void PgSession::unlock_all(const std::vector<LockTarget> &targets, LockMode mode) {
    const std::vector<Key> keys = keys_of(targets);
    Call scope(*this);
    require_usable("unlock", &keys.front());
    // Every key is checked before any is released: a misuse releases nothing.
    for (const Key &key : keys) {
        if (holds_.count(key, mode) == 0) {
            throw Misuse(describe_set("unlock", keys, mode) + ": this session does not hold " + format_key(key) +
                         " in that mode");
        }
    }
    if (keys.size() == 1) return unlock_locked(keys.front(), mode);
    for (const Key &key : keys) holds_.remove(key, mode);
    const PgResult result = run_set_statement(kUnlockAll, mode, keys);
    if (std::strcmp(PQgetvalue(result.get(), 0, 0), "0") != 0) {
        declare_lost("the server says the session no longer held " + std::string(PQgetvalue(result.get(), 0, 0)) +
                     " of the locks " + describe_set("", keys, mode).substr(1) +
                     ": they were released behind advlock's back (pg_advisory_unlock_all or DISCARD ALL on the "
                     "lock connection), so the work done since may have overlapped another holder");
        loss_.throw_lost(describe_set("unlock", keys, mode));
    }
}

bool PgSession::lock_all(const std::vector<LockTarget> &targets, LockMode mode, long long timeout_ms,
                         const CancelToken *cancel) {
    const std::vector<Key> keys = keys_of(targets);
    const auto started = std::chrono::steady_clock::now();
    const WaitCancelled cancelled(*this, cancel);
    auto connection = connection_for_wait(mutex_, timeout_ms, started, cancelled, describe_set("lock", keys, mode));
    if (!connection) return false;
    Call scope(*this, std::move(*connection));
    require_lock_rights("lock", keys.front());
    timeout_ms = remaining_ms(timeout_ms, started);
    if (timeout_ms == 0) return try_all_locked(keys, mode);

    // Keys this session holds in this mode already are granted without a
    // wait; they are taken after the wait, so that the undo of a failed wait
    // (which asks pg_locks what is held) only ever sees keys it granted.
    std::vector<Key> fresh, again;
    for (const Key &key : keys) (holds_.count(key, mode) > 0 ? again : fresh).push_back(key);
    if (!fresh.empty() && !wait_all_locked(fresh, mode, timeout_ms, cancelled, cancel)) return false;
    for (const Key &key : fresh) holds_.add(key, mode);
    if (again.empty()) return true;
    bool granted = false;
    try {
        granted = try_all_locked(again, mode);
    } catch (...) {
        for (const Key &key : fresh) {
            try {
                unlock_locked(key, mode);
            } catch (...) {  // the session is lost or closed: nothing left to release
            }
        }
        throw;
    }
    if (!granted) {
        // A session's own lock is always granted again: the server no longer counts it as held.
        declare_lost(describe_set("lock", again, mode) + ": the server would not grant again locks this session "
                     "holds: they were released behind advlock's back");
        loss_.throw_lost(describe_set("lock", keys, mode));
    }
    return true;
}

bool PgSession::wait_all_locked(const std::vector<Key> &keys, LockMode mode, long long timeout_ms,
                                const WaitCancelled &cancelled, const CancelToken *cancel) {
    PGconn *conn = connection_.get();
    const std::string doing = describe_set("lock", keys, mode);
    ServerWaits::Wait wait(server_waits_, cancelled, cancel);
    const bool began = wait.begin([&] {
        if (!PQsendQuery(conn, wait_all_sql(keys, mode, timeout_ms).c_str())) fail(nullptr, doing);
    });
    if (!began) throw_wait_ended(doing, ": cancelled before the wait began");
    bool granted = false;
    PgResult error;
    while (PGresult *raw = PQgetResult(conn)) {
        PgResult result(raw);
        if (PQresultStatus(raw) == PGRES_TUPLES_OK) {
            granted = PQntuples(raw) == static_cast<int>(keys.size());
        } else if (PQresultStatus(raw) != PGRES_COMMAND_OK && !error) {
            error = std::move(result);
        }
    }
    wait.end();  // the server's answer says whether it was cancelled (57014)
    if (granted && !error) return true;
    if (PQstatus(conn) == CONNECTION_BAD) fail(error.get(), doing);

    // The keys granted before the failure stay held (session locks outlive
    // the failed transaction), and one may have been granted just as the
    // wait failed: release them, so no failed wait leaves a lock behind.
    PgResult undone(PQexec(conn, undo_sql(keys, mode).c_str()));
    if (!undone || PQresultStatus(undone.get()) != PGRES_TUPLES_OK) {
        if (PQstatus(conn) == CONNECTION_BAD) fail(undone.get(), doing);
        // Locks may be held that nothing will release: only closing the
        // session (which the loss makes its owner do) releases them.
        declare_lost(doing + ": after the wait failed, releasing the locks it had taken failed too (" +
                     sqlstate_of(undone.get()) + "); close the session, which releases them");
        loss_.throw_lost(doing);
    }
    const bool granted_some = std::strcmp(PQgetvalue(undone.get(), 0, 0), "0") != 0;
    const std::string sqlstate = sqlstate_of(error.get());
    if (sqlstate == "55P03") return false;  // lock_not_available: the timeout
    if (sqlstate == "57014") {
        throw_wait_ended(doing, std::string(": the wait was cancelled") +
                                    (granted_some ? " (the locks granted before, released again)" : ""),
                         sqlstate);
    }
    fail(error.get(), doing);
}

}  // namespace advlock::core
