// advlock.hpp: a header-only C++17 wrapper over the C ABI (advlock.h), in the
// manner of libpqxx: RAII handles, exceptions, std::optional for "not acquired".
// It adds no behaviour of its own; everything happens behind the C ABI, so the
// CLI and the Python binding that use it behave exactly like C callers.
//
//   advlock::session session = advlock::session::open("postgresql://db/app");
//   if (std::optional<advlock::lock> lock = session.try_lock(advlock::key::from_name("daily_sales"))) {
//       run_batch();
//   }   // released here
#ifndef ADVLOCK_HPP
#define ADVLOCK_HPP

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "advlock.h"

namespace advlock {

// ---- exceptions: one type per status a caller may need to tell apart --------

class error : public std::runtime_error {
public:
    error(advlock_status status, const std::string &message, std::string sqlstate)
        : std::runtime_error(message), status_(status), sqlstate_(std::move(sqlstate)) {}
    advlock_status status() const noexcept { return status_; }
    const std::string &sqlstate() const noexcept { return sqlstate_; }

private:
    advlock_status status_;
    std::string sqlstate_;
};

// Statuses that are errors the caller never told apart by kind share this base.
class unsafe_target : public error {
public:
    using error::error;
};

// One class per error status of advlock/status_table.h, named by its kind
// column (lock_lost, misuse, ...), derived from its parent column's class.
#define ADVLOCK_HPP_ERROR(status, kind, Kind, parent, summary) \
    class kind : public parent {                               \
    public:                                                    \
        using parent::parent;                                  \
    };
ADVLOCK_STATUS_ERRORS(ADVLOCK_HPP_ERROR)
#undef ADVLOCK_HPP_ERROR
using io_error = file_error;  // the name before the status table

namespace detail {

// Throws the exception type of status, with this thread's last error message.
[[noreturn]] inline void throw_status(advlock_status status) {
    const advlock_error *last = advlock_error_last();
    const std::string message = last->status == status ? last->message : advlock_status_name(status);
    const std::string sqlstate = last->status == status ? last->sqlstate : "";
    switch (status) {
#define ADVLOCK_HPP_THROW(status_value, kind, Kind, parent, summary) \
    case status_value: throw kind(status, message, sqlstate);
        ADVLOCK_STATUS_ERRORS(ADVLOCK_HPP_THROW)
#undef ADVLOCK_HPP_THROW
        default: throw internal_error(status, message, sqlstate);
    }
}

// Returns non-error statuses (OK, NOT_ACQUIRED); throws for errors.
inline advlock_status check(advlock_status status) {
    if (status < 0) throw_status(status);
    return status;
}

}  // namespace detail

// ---- keys --------------------------------------------------------------------

// A lock target (advlock_target): a key, and the name it was made from when
// it has one (from_name, "name:" text, a registry entry without a key of its
// own, a MySQL holder row), which MySQL sessions lock instead of the key.
class key {
public:
    static key bigint(std::int64_t value) { return key(advlock_key_bigint(value)); }
    static key pair(std::int32_t k1, std::int32_t k2) { return key(advlock_key_pair(k1, k2)); }

    // The frozen advlock scheme (SHA-256 of "advlock:" + name). Throws bad_key.
    static key from_name(std::string_view name) {
        advlock_target t;
        detail::check(advlock_target_from_name(&t, name.data(), name.size()));
        return key(t);
    }

    // The with_advisory_lock gem's scheme (no name kept). Throws bad_key.
    static key from_name_compat(std::string_view name, std::int64_t prefix = 0) {
        advlock_key k;
        detail::check(advlock_key_from_name_compat(&k, name.data(), name.size(), prefix));
        return key(k);
    }

    // "100:1", "-42" or "name:TEXT" (which keeps the name). Throws bad_key.
    static key parse(std::string_view text) {
        advlock_target t;
        detail::check(advlock_target_parse(&t, text.data(), text.size()));
        return key(t);
    }

    static key from_pg_locks(const advlock_pg_locks_key &pg) {
        advlock_key k;
        detail::check(advlock_key_from_pg_locks(&k, &pg));
        return key(k);
    }

    explicit key(const advlock_key &k) : key_(k) {}
    // Copies the target's name, which it only borrowed.
    explicit key(const advlock_target &t) : key_(t.key) {
        if (t.name) name_ = std::string(t.name, t.name_len == ADVLOCK_NUL_TERMINATED ? std::strlen(t.name) : t.name_len);
    }

    bool is_pair() const { return key_.space == ADVLOCK_KEY_PAIR; }
    const advlock_key &c_key() const { return key_; }
    // The target to pass to the C ABI; borrows this key's name.
    advlock_target c_target() const {
        return advlock_target{key_, name_ ? name_->data() : nullptr, name_ ? name_->size() : 0};
    }
    const std::optional<std::string> &name() const { return name_; }

    std::string to_string() const {
        char text[ADVLOCK_KEY_TEXT_SIZE];
        detail::check(advlock_key_format(text, sizeof text, &key_));
        return text;
    }

    // The key of slot `slot` (1..ADVLOCK_SLOTS_MAX) of this lock (advlock_key_slot).
    key slot(unsigned slot) const {
        advlock_key k;
        detail::check(advlock_key_slot(&k, &key_, slot));
        return key(k);
    }

    advlock_pg_locks_key to_pg_locks() const {
        advlock_pg_locks_key pg;
        detail::check(advlock_key_to_pg_locks(&pg, &key_));
        return pg;
    }

    friend bool operator==(const key &a, const key &b) { return advlock_key_equal(&a.key_, &b.key_) != 0; }
    friend bool operator!=(const key &a, const key &b) { return !(a == b); }

private:
    advlock_key key_;
    std::optional<std::string> name_;
};

// ---- registry ------------------------------------------------------------------

// A borrowed view of one registry entry; valid while its registry lives.
class registry_entry {
public:
    explicit registry_entry(const advlock_registry_entry *entry) : entry_(entry) {}
    std::string_view name() const { return advlock_registry_entry_name(entry_); }
    std::string_view description() const { return advlock_registry_entry_description(entry_); }
    unsigned line() const { return advlock_registry_entry_line(entry_); }
    // Named when the entry has no key of its own (MySQL then locks the name).
    advlock::key key() const {
        advlock_target t;
        detail::check(advlock_registry_entry_target(&t, entry_));
        return advlock::key(t);
    }

private:
    const advlock_registry_entry *entry_;
};

class registry {
public:
    // Throws io_error or registry_error ("file:line: ...").
    static registry open(const std::string &path) {
        advlock_registry *r = nullptr;
        detail::check(advlock_registry_open(&r, path.c_str()));
        return registry(r);
    }
    static registry parse(std::string_view text, const std::string &origin = "<registry>") {
        advlock_registry *r = nullptr;
        detail::check(advlock_registry_parse(&r, text.data(), text.size(), origin.c_str()));
        return registry(r);
    }

    std::size_t size() const { return advlock_registry_count(handle_.get()); }
    registry_entry at(std::size_t index) const {
        const advlock_registry_entry *entry = advlock_registry_at(handle_.get(), index);
        if (!entry) throw std::out_of_range("advlock::registry::at: index out of range");
        return registry_entry(entry);
    }

    // Throws not_found (with a suggestion).
    registry_entry find(std::string_view name) const {
        const advlock_registry_entry *entry = nullptr;
        detail::check(advlock_registry_find_name(&entry, handle_.get(), name.data(), name.size()));
        return registry_entry(entry);
    }
    // std::nullopt when no entry has the key.
    std::optional<registry_entry> find(const key &k) const {
        const advlock_registry_entry *entry = nullptr;
        const advlock_status status = advlock_registry_find_key(&entry, handle_.get(), &k.c_key());
        if (status == ADVLOCK_ENOTFOUND) return std::nullopt;
        detail::check(status);
        return registry_entry(entry);
    }

    const advlock_registry *c_handle() const { return handle_.get(); }

private:
    struct deleter {
        void operator()(advlock_registry *r) const { advlock_registry_free(r); }
    };
    explicit registry(advlock_registry *r) : handle_(r) {}
    std::unique_ptr<advlock_registry, deleter> handle_;
};

// ---- sessions and locks ----------------------------------------------------------

enum class mode { exclusive = ADVLOCK_EXCLUSIVE, shared = ADVLOCK_SHARED };

// A timeout meaning "wait as long as it takes".
constexpr std::int64_t wait_forever = ADVLOCK_WAIT_FOREVER;

// Ends the waits it is given, and only those (advlock_cancel_token): hand it
// to session::acquire on the waiting thread, call cancel() from another.
class cancel_token {
public:
    cancel_token() {
        advlock_cancel_token *t = nullptr;
        detail::check(advlock_cancel_token_new(&t));
        handle_.reset(t);
    }
    // Any thread, any time; sticky.
    void cancel() { detail::check(advlock_cancel_token_cancel(handle_.get())); }
    advlock_cancel_token *c_handle() const { return handle_.get(); }

private:
    struct deleter {
        void operator()(advlock_cancel_token *t) const { advlock_cancel_token_free(t); }
    };
    std::unique_ptr<advlock_cancel_token, deleter> handle_;
};

// How session::acquire takes a lock (advlock_lock_options).
struct lock_options {
    std::int64_t timeout_ms = 0;  // 0: a try; wait_forever
    bool reentrant = false;       // the thread's reentrant locks are one owner
    const cancel_token *cancel = nullptr;
    std::uint64_t owner_id = 0;   // the runtime's thread id; 0: the OS thread
    unsigned slots = 0;           // N >= 2: any one free slot of N (job slots)
    bool fenced = false;          // issue a fencing token with the grant (PostgreSQL)
};

// One held lock; released by release() or at the end of its scope.
class lock {
public:
    // Throws misuse (second release, session closed) or lock_lost.
    void release() { detail::check(advlock_lock_release(handle_.get())); }
    // No round trip: throws lock_lost once the session's locks are known gone.
    void check() const { detail::check(advlock_lock_check(handle_.get())); }
    // One round trip; strict also asks the server's lock table for this key.
    void verify(bool strict = false) {
        detail::check(advlock_lock_verify(handle_.get(), strict ? ADVLOCK_VERIFY_STRICT : 0u));
    }
    // The key held on the server: the target's, or the slot's.
    advlock::key key() const {
        advlock_key k;
        detail::check(advlock_lock_key(&k, handle_.get()));
        return advlock::key(k);
    }
    // 1..N for a slot lock, 0 otherwise.
    unsigned slot() const {
        unsigned s = 0;
        detail::check(advlock_lock_slot(&s, handle_.get()));
        return s;
    }
    // The token issued with the grant; throws misuse unless taken fenced.
    std::int64_t fence_token() const {
        std::int64_t token = 0;
        detail::check(advlock_lock_fence_token(&token, handle_.get()));
        return token;
    }
    advlock_lock *c_handle() const { return handle_.get(); }

private:
    friend class session;
    struct deleter {
        void operator()(advlock_lock *l) const { advlock_lock_free(l); }
    };
    explicit lock(advlock_lock *l) : handle_(l) {}
    std::unique_ptr<advlock_lock, deleter> handle_;
};

// A set of locks taken all or nothing (session::acquire_all): lock i holds
// key i. release() lets go of every one in one round trip on PostgreSQL
// (advlock_lock_release_all). A set dropped while held frees each lock, whose
// release the session's own thread runs, as a lock's end of scope does.
class lock_set {
public:
    explicit lock_set(std::vector<lock> locks) : locks_(std::move(locks)) {}

    // Throws misuse (second release, session closed: then none is released)
    // or lock_lost; either way every lock counts as released afterwards.
    void release() {
        std::vector<advlock_lock *> handles;
        handles.reserve(locks_.size());
        for (const lock &l : locks_) handles.push_back(l.c_handle());
        detail::check(advlock_lock_release_all(handles.data(), handles.size()));
    }
    // No round trip: throws lock_lost once the session's locks are known gone
    // (or misuse once released).
    void check() const {
        for (const lock &l : locks_) l.check();
    }
    // No round trip, no throw: every lock still held as far as is known.
    bool held() const noexcept {
        for (const lock &l : locks_) {
            if (advlock_lock_check(l.c_handle()) != ADVLOCK_OK) return false;
        }
        return true;
    }
    // One round trip proves the session, and so every lock it holds; strict
    // also asks the server's lock table for each key (one round trip each).
    void verify(bool strict = false) {
        for (lock &l : locks_) {
            l.verify(strict);
            if (!strict) break;
        }
    }
    std::size_t size() const noexcept { return locks_.size(); }
    lock &operator[](std::size_t i) { return locks_.at(i); }
    const lock &operator[](std::size_t i) const { return locks_.at(i); }
    std::vector<lock>::iterator begin() { return locks_.begin(); }
    std::vector<lock>::iterator end() { return locks_.end(); }
    std::vector<lock>::const_iterator begin() const { return locks_.begin(); }
    std::vector<lock>::const_iterator end() const { return locks_.end(); }

private:
    std::vector<lock> locks_;
};

// One row of advlock_session_holders, with its strings copied.
struct holder {
    advlock::key key;
    std::optional<std::string> lock_name, user, application_name, client_addr, client_hostname;
    advlock::mode mode;
    bool granted, is_self, details_hidden;
    std::int64_t server_id;
    std::int64_t backend_start_unix_us, wait_start_unix_us;
};

struct session_options {
    std::string application_name;  // empty: the URL's, PGAPPNAME, else "advlock"
    bool allow_standby = false;
    bool allow_pooler = false;
    std::int32_t heartbeat_interval_ms = 0;  // 0: the default
    std::int32_t heartbeat_deadline_ms = 0;  // 0: the default
    std::int32_t stop_grace_ms = 0;          // 0: the default (advlock_session_options)
};

// Called once when the session's locks are lost, with why; on the watchdog
// thread or the thread that found out. Exceptions it throws are swallowed.
using lost_handler = std::function<void(const std::string &why)>;

// One dedicated connection that holds locks; closed at the end of its scope.
class session {
public:
    // Throws connect_error, the unsafe_target kinds, invalid_argument.
    static session open(const std::string &url, const session_options &options = {}) {
        advlock_session_options c_options;
        detail::check(advlock_session_options_init(&c_options, ADVLOCK_SESSION_OPTIONS_VERSION));
        if (!options.application_name.empty()) c_options.application_name = options.application_name.c_str();
        c_options.flags = (options.allow_standby ? ADVLOCK_SESSION_ALLOW_STANDBY : 0u) |
                          (options.allow_pooler ? ADVLOCK_SESSION_ALLOW_POOLER : 0u);
        c_options.heartbeat_interval_ms = options.heartbeat_interval_ms;
        c_options.heartbeat_deadline_ms = options.heartbeat_deadline_ms;
        c_options.stop_grace_ms = options.stop_grace_ms;
        advlock_session *s = nullptr;
        detail::check(advlock_session_open(&s, url.c_str(), &c_options));
        return session(s);
    }

    // std::nullopt when another session, or another handle of this one, holds
    // the lock: every lock is its own owner (advlock_session_try_lock).
    std::optional<lock> try_lock(const key &k, mode m = mode::exclusive) {
        require_open("try_lock");
        advlock_lock *l = nullptr;
        const advlock_mode c_mode = static_cast<advlock_mode>(m);
        const advlock_target target = k.c_target();
        const advlock_status status = advlock_session_try_lock(&l, handle_.get(), &target, c_mode);
        if (detail::check(status) == ADVLOCK_NOT_ACQUIRED) {
            return std::nullopt;
        }
        return lock(l);
    }

    // Waits on the server up to timeout_ms (wait_forever, or 0 to try);
    // std::nullopt when the time ran out. Throws canceled, deadlock...
    std::optional<lock> lock_within(const key &k, std::int64_t timeout_ms, mode m = mode::exclusive) {
        require_open("lock_within");
        advlock_lock *l = nullptr;
        const advlock_mode c_mode = static_cast<advlock_mode>(m);
        const advlock_target target = k.c_target();
        const advlock_status status = advlock_session_lock(&l, handle_.get(), &target, c_mode, timeout_ms);
        if (detail::check(status) == ADVLOCK_NOT_ACQUIRED) {
            return std::nullopt;
        }
        return lock(l);
    }

    // try_lock / lock_within with every option: reentrant, a cancel token.
    // std::nullopt when another owner holds the lock and the time ran out.
    std::optional<lock> acquire(const key &k, mode m, const lock_options &options) {
        require_open("acquire");
        const advlock_lock_options c_options = c_lock_options(options);
        advlock_lock *l = nullptr;
        const advlock_mode c_mode = static_cast<advlock_mode>(m);
        const advlock_target target = k.c_target();
        const advlock_status status = advlock_session_acquire(&l, handle_.get(), &target, c_mode, &c_options);
        if (detail::check(status) == ADVLOCK_NOT_ACQUIRED) {
            return std::nullopt;
        }
        return lock(l);
    }

    // A set of locks, all or nothing (advlock_session_acquire_all): one lock
    // per key, in the keys' order, or std::nullopt with none held.
    std::optional<lock_set> acquire_all(const std::vector<key> &keys, mode m, const lock_options &options) {
        require_open("acquire_all");
        const advlock_lock_options c_options = c_lock_options(options);
        std::vector<advlock_target> targets;
        targets.reserve(keys.size());
        for (const key &k : keys) targets.push_back(k.c_target());
        std::vector<advlock_lock *> handles(keys.size(), nullptr);
        const advlock_status status = advlock_session_acquire_all(
            handles.data(), handle_.get(), targets.data(), targets.size(), static_cast<advlock_mode>(m), &c_options);
        if (detail::check(status) == ADVLOCK_NOT_ACQUIRED) return std::nullopt;
        std::vector<lock> locks;
        locks.reserve(handles.size());
        for (advlock_lock *l : handles) locks.push_back(lock(l));
        return lock_set(std::move(locks));
    }

    // Interrupts every lock_within() wait of the session on other threads.
    void cancel() {
        require_open("cancel");
        detail::check(advlock_session_cancel(handle_.get()));
    }

    void check() const {
        require_open("check");
        detail::check(advlock_session_check(handle_.get()));
    }
    void verify() {
        require_open("verify");
        detail::check(advlock_session_verify(handle_.get()));
    }

    void on_lost(lost_handler handler) {
        require_open("on_lost");
        *handler_ = std::move(handler);
        detail::check(advlock_session_set_lost_callback(handle_.get(), &session::trampoline, handler_.get()));
    }

    // note (may be NULL) receives what the server could not show, or "".
    std::vector<holder> holders(const registry *names = nullptr, const key *only = nullptr,
                                std::string *note = nullptr) {
        require_open("holders");
        advlock_holders *raw = nullptr;
        const advlock_registry *c_names = names ? names->c_handle() : nullptr;
        const advlock_target only_target = only ? only->c_target() : advlock_target{};
        detail::check(advlock_session_holders(&raw, handle_.get(), c_names, only ? &only_target : nullptr));
        std::unique_ptr<advlock_holders, void (*)(advlock_holders *)> list(raw, &advlock_holders_free);
        if (note) note->assign(advlock_holders_note(raw) ? advlock_holders_note(raw) : "");
        const auto text = [](const char *s) { return s ? std::optional<std::string>(s) : std::nullopt; };
        std::vector<holder> rows;
        for (std::size_t i = 0; i < advlock_holders_count(raw); ++i) {
            const advlock_holder *h = advlock_holders_at(raw, i);
            rows.push_back(holder{key(h->target), text(h->lock_name), text(h->user), text(h->application_name),
                                  text(h->client_addr), text(h->client_hostname), static_cast<mode>(h->mode),
                                  (h->flags & ADVLOCK_HOLDER_GRANTED) != 0, (h->flags & ADVLOCK_HOLDER_SELF) != 0,
                                  (h->flags & ADVLOCK_HOLDER_DETAILS_HIDDEN) != 0, h->server_id,
                                  h->backend_start_unix_us, h->wait_start_unix_us});
        }
        return rows;
    }

    // The run ledger: when job completed in the current period (unix µs, 0: not yet).
    std::int64_t ledger_completed(const std::string &job, const std::string &period) {
        require_open("ledger_completed");
        std::int64_t when = 0;
        detail::check(advlock_session_ledger_completed(&when, handle_.get(), job.c_str(), period.c_str()));
        return when;
    }
    void ledger_record(const std::string &job, const std::string &period, const std::string &host) {
        require_open("ledger_record");
        detail::check(advlock_session_ledger_record(handle_.get(), job.c_str(), period.c_str(), host.c_str()));
    }

    // The server's id for the session (PostgreSQL backend pid, MySQL connection id).
    std::int64_t server_id() const {
        require_open("server_id");
        std::int64_t id = 0;
        detail::check(advlock_session_server_id(&id, handle_.get()));
        return id;
    }

    // Blocks up to timeout_ms (wait_forever) for the locks to be lost: throws
    // lock_lost (with why) then, misuse once closed; returns when the time ran
    // out with nothing known lost.
    void wait_lost(std::int64_t timeout_ms) {
        require_open("wait_lost");
        detail::check(advlock_session_wait_lost(handle_.get(), timeout_ms));
    }

    // Readable once the locks are lost or the session closed (advlock_session_loss_fd).
    int loss_fd() {
        require_open("loss_fd");
        int fd = -1;
        detail::check(advlock_session_loss_fd(&fd, handle_.get()));
        return fd;
    }

    // Ends the connection, releasing every lock; later calls throw misuse.
    // Safe from any thread, also while another thread waits on the session.
    void close() noexcept { advlock_session_close(handle_.get()); }

    advlock_session *c_handle() const { return handle_.get(); }

private:
    static advlock_lock_options c_lock_options(const lock_options &options) {
        advlock_lock_options c_options;
        detail::check(advlock_lock_options_init(&c_options, ADVLOCK_LOCK_OPTIONS_VERSION));
        c_options.timeout_ms = options.timeout_ms;
        c_options.flags = (options.reentrant ? ADVLOCK_LOCK_REENTRANT : 0u) | (options.fenced ? ADVLOCK_LOCK_FENCED : 0u);
        c_options.slots = options.slots;
        c_options.cancel = options.cancel ? options.cancel->c_handle() : nullptr;
        c_options.owner_id = options.owner_id;
        return c_options;
    }
    struct deleter {
        void operator()(advlock_session *s) const { advlock_session_free(s); }
    };
    explicit session(advlock_session *s) : handle_(s) {}
    void require_open(const char *doing) const {
        if (!handle_) {
            throw misuse(ADVLOCK_EMISUSE, std::string("advlock::session::") + doing + ": the session was moved from", "");
        }
    }
    static void trampoline(const advlock_error *why, void *payload) {
        try {
            const auto &handler = *static_cast<lost_handler *>(payload);
            if (handler) handler(why->message);
        } catch (...) {
            // A C callback must not throw; the loss is still visible to check().
        }
    }
    // Heap-held so the callback's payload stays put when the session moves;
    // declared before handle_ so it outlives the close in handle_'s deleter.
    std::unique_ptr<lost_handler> handler_ = std::make_unique<lost_handler>();
    std::unique_ptr<advlock_session, deleter> handle_;
};

// ---- SQL text ------------------------------------------------------------------------

namespace detail {
inline std::string take_string(char *text) {
    std::string copy = text ? text : "";
    advlock_free(text);
    return copy;
}
}  // namespace detail

// text safe to print on a terminal, at most max_bytes of it (then "..."):
// control characters escaped, as advlock's own messages quote input.
inline std::string printable(std::string_view text, std::size_t max_bytes = 80) {
    char *out = nullptr;
    detail::check(advlock_text_printable(&out, text.data() ? text.data() : "", text.size(), max_bytes));
    return detail::take_string(out);
}

// The psql expression computing the advlock key of name. Throws bad_key.
inline std::string name_key_sql(std::string_view name) {
    char *out = nullptr;
    detail::check(advlock_key_name_sql(&out, name.data(), name.size()));
    return detail::take_string(out);
}

// The run ledger's CREATE TABLE statement.
inline std::string ledger_sql() {
    char *out = nullptr;
    detail::check(advlock_sql_ledger(&out));
    return detail::take_string(out);
}

// REVOKE or GRANT EXECUTE on every advisory-lock function, for role.
// The fence table and functions to create once (`advlock sql fence`).
inline std::string fence_sql() {
    char *text = nullptr;
    detail::check(advlock_sql_fence(&text));
    return detail::take_string(text);
}

// The fence check as one statement for any driver; run it in the job's transaction.
inline std::string fence_check_sql(const key &k, std::int64_t token) {
    char *text = nullptr;
    detail::check(advlock_fence_check_sql(&text, &k.c_key(), token));
    return detail::take_string(text);
}

// The fence check on a libpq connection inside the job's transaction: throws
// fenced_out when a newer holder took the lock.
inline void fence_check(struct pg_conn *conn, const key &k, std::int64_t token) {
    detail::check(advlock_fence_check(conn, &k.c_key(), token));
}

inline std::string privileges_sql(const std::string &role, bool grant) {
    char *out = nullptr;
    detail::check(advlock_sql_privileges(&out, role.c_str(), grant ? ADVLOCK_SQL_GRANT : 0u));
    return detail::take_string(out);
}

// ---- SQL for other drivers (JDBC, psycopg, ActiveRecord) -----------------------------

enum class sql_kind {
    try_lock = ADVLOCK_SQL_TRY_LOCK,
    lock = ADVLOCK_SQL_LOCK,
    unlock = ADVLOCK_SQL_UNLOCK,
    try_xact_lock = ADVLOCK_SQL_TRY_XACT_LOCK,
    xact_lock = ADVLOCK_SQL_XACT_LOCK
};

// "try_lock", "lock", "unlock", "try_xact_lock" or "xact_lock", as bindings
// name them. Throws invalid_argument for anything else.
inline sql_kind sql_kind_from_name(std::string_view name) {
    if (name == "try_lock") return sql_kind::try_lock;
    if (name == "lock") return sql_kind::lock;
    if (name == "unlock") return sql_kind::unlock;
    if (name == "try_xact_lock") return sql_kind::try_xact_lock;
    if (name == "xact_lock") return sql_kind::xact_lock;
    throw invalid_argument(ADVLOCK_EINVAL, "unknown statement kind '" + std::string(name) +
                           "' (known: try_lock, lock, unlock, try_xact_lock, xact_lock)", "");
}

// The statement advlock would run, e.g. "SELECT pg_try_advisory_xact_lock(100, 1)".
inline std::string sql(sql_kind kind, const key &k, mode m = mode::exclusive) {
    char text[ADVLOCK_SQL_TEXT_SIZE];
    detail::check(advlock_sql(text, sizeof text, static_cast<advlock_sql_kind>(kind), &k.c_key(),
                              static_cast<advlock_mode>(m)));
    return text;
}

// One step of a timed transaction-scoped wait through another driver, in the
// order advlock_xact_wait_sql documents; saved: what set_timeout answered.
enum class xact_wait_step {
    savepoint = ADVLOCK_XACT_WAIT_SAVEPOINT,
    set_timeout = ADVLOCK_XACT_WAIT_SET_TIMEOUT,
    lock = ADVLOCK_XACT_WAIT_LOCK,
    restore_timeout = ADVLOCK_XACT_WAIT_RESTORE_TIMEOUT,
    release = ADVLOCK_XACT_WAIT_RELEASE,
    rollback = ADVLOCK_XACT_WAIT_ROLLBACK
};

// "savepoint", "set_timeout", "lock", "restore_timeout", "release" or
// "rollback", as bindings name them. Throws invalid_argument otherwise.
inline xact_wait_step xact_wait_step_from_name(std::string_view name) {
    if (name == "savepoint") return xact_wait_step::savepoint;
    if (name == "set_timeout") return xact_wait_step::set_timeout;
    if (name == "lock") return xact_wait_step::lock;
    if (name == "restore_timeout") return xact_wait_step::restore_timeout;
    if (name == "release") return xact_wait_step::release;
    if (name == "rollback") return xact_wait_step::rollback;
    throw invalid_argument(ADVLOCK_EINVAL, "unknown transaction wait step '" + std::string(name) +
                           "' (known: savepoint, set_timeout, lock, restore_timeout, release, rollback)", "");
}

inline std::string xact_wait_sql(xact_wait_step step, const key &k, mode m, std::int64_t timeout_ms,
                                 const std::string &saved = {}) {
    char *out = nullptr;
    detail::check(advlock_xact_wait_sql(&out, static_cast<advlock_xact_wait_step>(step), &k.c_key(),
                                        static_cast<advlock_mode>(m), timeout_ms,
                                        step == xact_wait_step::restore_timeout ? saved.c_str() : nullptr));
    return detail::take_string(out);
}

// What a server error with this SQLSTATE means (advlock_status_from_sqlstate).
inline advlock_status status_from_sqlstate(const std::string &sqlstate) {
    return advlock_status_from_sqlstate(sqlstate.c_str());
}

// What that statement's boolean answer means: true acquired (or released),
// false held elsewhere; throws lock_lost for an unlock that found nothing.
inline bool sql_result(sql_kind kind, const key &k, bool answer) {
    return detail::check(advlock_sql_result(static_cast<advlock_sql_kind>(kind), &k.c_key(), answer ? 1 : 0)) ==
           ADVLOCK_OK;
}

// ---- transaction-scoped locks on your own libpq connection --------------------------

// true: held until the transaction ends; false: held elsewhere. conn must be
// inside a transaction block (throws misuse otherwise).
inline bool xact_try_lock(struct pg_conn *conn, const key &k, mode m = mode::exclusive) {
    return detail::check(advlock_xact_try_lock(conn, &k.c_key(), static_cast<advlock_mode>(m))) == ADVLOCK_OK;
}

inline bool xact_lock_within(struct pg_conn *conn, const key &k, std::int64_t timeout_ms, mode m = mode::exclusive) {
    return detail::check(advlock_xact_lock(conn, &k.c_key(), static_cast<advlock_mode>(m), timeout_ms)) == ADVLOCK_OK;
}

}  // namespace advlock

#endif  // ADVLOCK_HPP
