#include "mysql/mysql_session.hpp"

#include <cstdio>

#include "error.hpp"
#include "session/connection_wait.hpp"
#include "mysql/mysql_errors.hpp"
#include "mysql/mysql_holders.hpp"
#include "mysql/mysql_lock_name.hpp"
#include "session/heartbeat_settings.hpp"
#include "text/message_text.hpp"
#include "text/redact.hpp"

namespace advlock::core {

namespace {

// The longest single GET_LOCK wait; a wait without limit repeats it.
constexpr long long kLongestWaitMs = 24LL * 3600 * 1000;

// "12.345": GET_LOCK takes fractional seconds (MariaDB 10.1+, MySQL 5.7+).
std::string seconds_text(long long ms) {
    char text[32];
    std::snprintf(text, sizeof text, "%lld.%03lld", ms / 1000, ms % 1000);
    return text;
}

}  // namespace

// As PgSession::Call: pending releases run first.
class MysqlSession::Call : public UserCall {
public:
    explicit Call(MysqlSession &session) : UserCall(session.mutex_, session.watchdog_.signals(), session.loss_) {
        session.run_pending_unlocks_locked();
    }
    Call(MysqlSession &session, std::unique_lock<std::mutex> locked)
        : UserCall(std::move(locked), session.watchdog_.signals(), session.loss_) {
        session.run_pending_unlocks_locked();
    }
};

MysqlSession::MysqlSession(MysqlConnection connection, const MysqlSessionOptions &options)
    : connection_(std::move(connection)),
      connection_id_(connection_.connection_id()),
      heartbeat_interval_(options.heartbeat_interval_ms),
      heartbeat_deadline_(options.heartbeat_deadline_ms),
      silence_limit_s_(server_silence_limit_s(options.heartbeat())),
      server_waits_([this] { connection_.kill_running_statement(); }) {}

std::shared_ptr<MysqlSession> MysqlSession::open(const std::string &url, const MysqlSessionOptions &options) {
    validate_heartbeat(options.heartbeat());
    const MysqlUrl parsed = parse_mysql_url(url);
    MysqlConnectOptions connect = options.connect;
    connect.silence_limit_s = server_silence_limit_s(options.heartbeat());
    std::shared_ptr<MysqlSession> session(new MysqlSession(MysqlConnection::open(parsed, connect), options));
    session->start_watchdog();
    return session;
}

MysqlSession::~MysqlSession() { close(); }

void MysqlSession::close_connection() noexcept {
    watchdog_.stop();
    std::lock_guard<std::mutex> guard(mutex_);  // calls in progress leave the connection first
    connection_.close();
    holds_.clear();
    pending_unlocks_.take();  // closing released them
}

std::string MysqlSession::mysql_lock_name_of(const LockTarget &target) const {
    return mysql_lock_name(target, connection_.url().scope);
}

namespace {

// "try_lock 'daily_sales' (key ...)": only for messages, so only on failure.
std::string described(const char *doing, const LockTarget *target) {
    return std::string(doing) + (target ? " " + target->describe() : std::string());
}

// "SELECT FUNCTION(literal)" or "SELECT FUNCTION(literal, argument)".
std::string call_sql(const char *function, const std::string &literal, const char *argument = nullptr) {
    std::string sql;
    sql.reserve(32 + literal.size());
    sql.append("SELECT ").append(function).append("(").append(literal);
    if (argument) sql.append(", ").append(argument);
    return sql.append(")");
}

}  // namespace

void MysqlSession::require_usable(const char *doing, const LockTarget *target, LockMode mode) const {
    if (is_closed() || !connection_) throw Misuse(described(doing, target) + ": the session is closed; open a new one");
    if (loss_.lost()) loss_.throw_lost(described(doing, target));
    if (mode == LockMode::Shared) {
        throw Unsupported(described(doing, target) +
                          " (shared): MySQL and MariaDB user locks (GET_LOCK) have no shared mode; take it "
                          "exclusively, or use PostgreSQL for shared locks");
    }
}

void MysqlSession::check() const { require_usable("check", nullptr, LockMode::Exclusive); }



void MysqlSession::fail(const std::string &doing) {
    MYSQL *mysql = connection_.get();
    if (mysql_connection_gone(mysql_errno(mysql))) {
        declare_lost("the connection to the MySQL server was lost: " + std::string(mysql_error(mysql)) +
                     " (MySQL error " + std::to_string(mysql_errno(mysql)) + ")");
        loss_.throw_lost(doing);
    }
    throw_mysql_error(mysql, doing, connection_.secrets());
}

std::optional<std::string> MysqlSession::value_of(const std::string &sql, const char *doing, const LockTarget &target) {
    std::optional<std::string> value;
    if (!connection_.fetch_value(sql, value)) fail(described(doing, &target));
    return value;
}

bool MysqlSession::get_lock_locked(const std::string &name, const char *seconds, const LockTarget &target,
                                   const char *doing) {
    const std::optional<std::string> granted = value_of(call_sql("GET_LOCK", connection_.literal(name), seconds), doing, target);
    if (granted && *granted == "1") {
        holds_.add(name, LockMode::Exclusive);
        return true;
    }
    if (!granted) {
        throw ServerError(described(doing, &target) +
                          ": the server answered GET_LOCK with NULL (an error, or the statement was killed)");
    }
    return false;
}

bool MysqlSession::try_lock(const LockTarget &target, LockMode mode) {
    Call scope(*this);
    require_usable("try_lock", &target, mode);
    return get_lock_locked(mysql_lock_name_of(target), "0", target, "try_lock");
}

void MysqlSession::unlock(const LockTarget &target, LockMode mode) {
    Call scope(*this);
    require_usable("unlock", &target, mode);
    unlock_locked(target);
}

void MysqlSession::unlock_soon(const LockTarget &target, LockMode mode) noexcept {
    if (is_closed() || loss_.lost()) return;
    pending_unlocks_.add(target, mode);
    watchdog_.signals().wake();
}

void MysqlSession::run_pending_unlocks_locked() noexcept {
    if (pending_unlocks_.empty()) return;
    for (const auto &pending : pending_unlocks_.take()) {
        if (!connection_ || loss_.lost()) return;  // the close or the loss released them all
        try {
            unlock_locked(pending.first);
        } catch (...) {
            // Nobody to tell: a loss it found is recorded, and the next call reports it.
        }
    }
}

void MysqlSession::unlock_locked(const LockTarget &target) {
    const std::string name = mysql_lock_name_of(target);
    if (holds_.remove(name, LockMode::Exclusive) < 0) {
        throw Misuse(described("unlock", &target) + ": this session does not hold that lock");
    }
    const std::optional<std::string> released = value_of(call_sql("RELEASE_LOCK", connection_.literal(name)), "unlock", target);
    if (released && *released == "1") return;
    declare_lost("the server says the session no longer held lock " + quoted(name) +
                 (released ? std::string(" (another session holds it now)") : std::string(" (nobody holds it)")) +
                 ": it was released behind advlock's back (RELEASE_ALL_LOCKS, mysql_reset_connection or "
                 "change_user on the lock connection), so the work done since may have overlapped another holder");
    loss_.throw_lost(described("unlock", &target));
}

bool MysqlSession::lock(const LockTarget &target, LockMode mode, long long timeout_ms,
                        const CancelToken *cancel) {
    const auto started = std::chrono::steady_clock::now();
    const WaitCancelled cancelled_meanwhile(*this, cancel);
    auto connection = connection_for_wait(mutex_, timeout_ms, started, cancelled_meanwhile, described("lock", &target));
    if (!connection) return false;
    Call scope(*this, std::move(*connection));
    require_usable("lock", &target, mode);
    timeout_ms = remaining_ms(timeout_ms, started);
    const std::string name = mysql_lock_name_of(target);
    // Re-entry is granted without a wait (and counted by the server, as ours).
    if (timeout_ms == 0 || holds_.count(name, LockMode::Exclusive) > 0) {
        return get_lock_locked(name, "0", target, "lock");
    }

    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    // Ends before the next user of the connection can start a statement.
    ServerWaits::Wait wait(server_waits_, cancelled_meanwhile, cancel);
    for (;;) {
        long long wait_ms = kLongestWaitMs;
        if (timeout_ms > 0) {
            wait_ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                          .count();
            if (wait_ms <= 0) return get_lock_locked(name, "0", target, "lock");  // the time ran out: one last try
            wait_ms = std::min(wait_ms, kLongestWaitMs);
        }
        // GET_LOCK is sent right after: a KILL QUERY that comes first is
        // caught by the check after it.
        if (!wait.begin()) throw_wait_ended(described("lock", &target), ": cancelled before the wait began");
        bool granted = false;
        std::exception_ptr failure;
        try {
            granted = get_lock_locked(name, seconds_text(wait_ms).c_str(), target, "lock");
        } catch (...) {
            failure = std::current_exception();
        }
        const bool cancelled = wait.end();
        if (granted) return true;  // a grant beats a cancel that came too late to stop it
        if (cancelled) throw_wait_ended(described("lock", &target), ": the wait was cancelled");
        if (failure) std::rethrow_exception(failure);
        if (timeout_ms > 0 && std::chrono::steady_clock::now() >= deadline) return false;
    }
}

std::string MysqlSession::owner_key(const LockTarget &target) const {
    std::string name = mysql_lock_name_of(target);
    for (char &c : name) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    return name;
}

void MysqlSession::cancel_server_wait() { server_waits_.interrupt(); }

HolderList MysqlSession::holders(const Registry *registry, const std::optional<LockTarget> &only) {
    Call scope(*this);
    require_usable("holders", nullptr, LockMode::Exclusive);
    std::optional<std::string> only_name;
    if (only) only_name = mysql_lock_name_of(*only);
    try {
        return list_mysql_holders(connection_, registry, only_name);
    } catch (const ConnectError &) {
        fail("holders");
    }
}

void MysqlSession::verify() {
    Call scope(*this);
    require_usable("verify", nullptr, LockMode::Exclusive);
    heartbeat_locked();
    if (loss_.lost()) loss_.throw_lost("verify");
}

void MysqlSession::verify_held(const LockTarget &target, LockMode mode) {
    Call scope(*this);
    require_usable("verify", &target, mode);
    const std::string name = mysql_lock_name_of(target);
    if (holds_.count(name, LockMode::Exclusive) == 0) throw Misuse(described("verify", &target) + ": this session does not hold that lock");
    const std::optional<std::string> mine =
        value_of("SELECT IS_USED_LOCK(" + connection_.literal(name) + ") = CONNECTION_ID()", "verify", target);
    if (mine && *mine == "1") return;
    declare_lost("lock " + quoted(name) + (mine ? " is held by another session" : " is held by nobody") +
                 " on the server (IS_USED_LOCK) although this session took it: it was released behind advlock's back");
    loss_.throw_lost(described("verify", &target));
}

long long MysqlSession::ledger_completed(const std::string &, const std::string &) {
    check();
    throw Unsupported("--once-per keeps its run ledger in a PostgreSQL table; the MySQL backend has none yet: "
                      "give --db a PostgreSQL URL for --once-per");
}

void MysqlSession::ledger_record(const std::string &job, const std::string &period, const std::string &) {
    ledger_completed(job, period);
}

void MysqlSession::run_sql_for_tests(const std::string &sql) {
    Call scope(*this);
    require_usable("run_sql_for_tests", nullptr, LockMode::Exclusive);
    mysql_real_query(connection_.get(), sql.data(), sql.size());
    if (MYSQL_RES *result = mysql_store_result(connection_.get())) mysql_free_result(result);
}

}  // namespace advlock::core
