// advlock_swig.hpp: the C++ surface SWIG wraps for Java and Ruby (advlock.i).
//
// advlock.hpp is move-only and returns handles by value with std::optional,
// which SWIG cannot express; this header restates it as plain heap objects
// SWIG can own. Everything else is the C ABI's: close from any thread, the
// wait for loss (a Java thread of the binding's own waits in
// advlock_session_wait_lost, Ruby selects on advlock_session_loss_fd, so no
// callback ever enters the VM from the watchdog thread), the status table each
// language builds its exception classes' mapping from, and status-carrying
// exceptions (advlock::error) that each language's .i maps to those classes.
// No lock behaviour and no state is kept here.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "advlock.hpp"

namespace advlock_swig {

// A slot number or count from a language whose integers are wider or signed
// (Java's long, Ruby's Integer), for the C ABI's unsigned: one the unsigned
// cannot hold is refused here, so it is never wrapped to a valid-looking
// number; every other value is the C library's to judge.
inline unsigned slot_count(std::int64_t n, const char *what) {
    if (n < 0 || n > static_cast<std::int64_t>(std::numeric_limits<unsigned>::max())) {
        throw advlock::error(ADVLOCK_EINVAL,
                             std::string("advlock: ") + what + " " + std::to_string(n) +
                                 " is out of range (a lock has at most " + std::to_string(ADVLOCK_SLOTS_MAX) +
                                 " slots)",
                             "");
    }
    return static_cast<unsigned>(n);
}

class Key {
public:
    static Key bigint(std::int64_t value) { return Key(advlock::key::bigint(value)); }
    static Key pair(std::int32_t k1, std::int32_t k2) { return Key(advlock::key::pair(k1, k2)); }
    static Key from_name(const std::string &name) { return Key(advlock::key::from_name(name)); }
    static Key from_name_compat(const std::string &name, std::int64_t prefix) {
        return Key(advlock::key::from_name_compat(name, prefix));
    }
    static Key parse(const std::string &text) { return Key(advlock::key::parse(text)); }

    bool is_pair() const { return key_.is_pair(); }
    std::int32_t k1() const { return key_.c_key().k1; }
    std::int32_t k2() const { return key_.c_key().k2; }
    std::int64_t bigint_value() const { return key_.c_key().bigint; }
    std::string to_string() const { return key_.to_string(); }
    // The name the key was made from (advlock.hpp's rule: from_name, "name:"
    // text, a registry entry or a holder row locking its name), "" when none.
    // A named key locks the name itself on MySQL, so the bindings keep it.
    bool has_name() const { return key_.name().has_value(); }
    std::string name() const { return key_.name().value_or(""); }

    // The statement advlock would run, for another driver (JDBC, ActiveRecord):
    // kind is try_lock, lock, unlock, try_xact_lock or xact_lock.
    std::string sql(const std::string &kind, bool shared) const {
        return advlock::sql(advlock::sql_kind_from_name(kind), key_,
                            shared ? advlock::mode::shared : advlock::mode::exclusive);
    }
    // What that statement's boolean answer means: true acquired / released,
    // false not acquired; throws lock_lost for an unlock that found nothing.
    bool sql_result(const std::string &kind, bool answer) const {
        return advlock::sql_result(advlock::sql_kind_from_name(kind), key_, answer);
    }

    // One step of a timed transaction-scoped wait run by another driver
    // (advlock_xact_wait_sql): step is savepoint, set_timeout, lock,
    // restore_timeout (saved: what set_timeout answered), release or rollback.
    std::string xact_wait_sql(const std::string &step, bool shared, std::int64_t timeout_ms,
                              const std::string &saved) const {
        return advlock::xact_wait_sql(advlock::xact_wait_step_from_name(step), key_,
                                      shared ? advlock::mode::shared : advlock::mode::exclusive, timeout_ms, saved);
    }

    // The key of slot n (1..ADVLOCK_SLOTS_MAX) of this lock (advlock_key_slot).
    Key slot(std::int64_t n) const { return Key(key_.slot(slot_count(n, "slot"))); }

    // The fence check as one statement (advlock_fence_check_sql), for the
    // job's own driver to run inside its transaction; this is the key held
    // on the server (Lock::server_key), token the lock's fence token.
    std::string fence_check_sql(std::int64_t token) const { return advlock::fence_check_sql(key_, token); }

    const advlock::key &native() const { return key_; }
    Key() : key_(advlock::key::bigint(0)) {}  // SWIG's containers need a default
    explicit Key(const advlock::key &key) : key_(key) {}

private:
    advlock::key key_;
};

struct RegistryEntry {
    std::string name, description;
    Key key;
    unsigned line;
};

class Registry {
public:
    static Registry *open(const std::string &path) { return new Registry(advlock::registry::open(path)); }
    static Registry *parse(const std::string &text, const std::string &origin) {
        return new Registry(advlock::registry::parse(text, origin));
    }
    std::size_t size() const { return registry_.size(); }
    RegistryEntry at(std::size_t index) const { return copy(registry_.at(index)); }
    // Throws not_found (with the closest name).
    RegistryEntry find(const std::string &name) const { return copy(registry_.find(name)); }
    // An entry with an empty name when no entry has the key.
    RegistryEntry find_key(const Key &key) const {
        std::optional<advlock::registry_entry> entry = registry_.find(key.native());
        return entry ? copy(*entry) : RegistryEntry{"", "", key, 0};
    }
    const advlock::registry &native() const { return registry_; }

private:
    explicit Registry(advlock::registry registry) : registry_(std::move(registry)) {}
    static RegistryEntry copy(const advlock::registry_entry &e) {
        return {std::string(e.name()), std::string(e.description()), Key(e.key()), e.line()};
    }
    advlock::registry registry_;
};

struct Holder {
    Key key;
    std::string lock_name;  // "" when the registry has no name for the key
    bool shared, granted, is_self, details_hidden;
    std::int64_t server_id;
    std::string user, application_name, client_addr, client_hostname;  // "" when hidden or absent
    std::int64_t backend_start_unix_us, wait_start_unix_us;             // 0 when unknown
};

// What Session::holders answers: the rows, and what the server could not show
// (MySQL/MariaDB without the tables that list waiters or every lock).
struct HolderList {
    std::vector<Holder> rows;
    std::string note;  // "" when the server showed everything asked for
};

class Lock {
public:
    void release() { lock_.release(); }
    void check() const { lock_.check(); }
    void verify(bool strict) { lock_.verify(strict); }
    bool held() const { return advlock_lock_check(lock_.c_handle()) == ADVLOCK_OK; }
    // The key held on the server: the target's, or the slot's (advlock_lock_key).
    Key server_key() const { return Key(lock_.key()); }
    // 1..N for a lock taken with slots, 0 otherwise.
    int slot() const { return static_cast<int>(lock_.slot()); }
    // The token issued with the grant; throws misuse unless taken fenced.
    std::int64_t fence_token() const { return lock_.fence_token(); }
    explicit Lock(advlock::lock lock) : lock_(std::move(lock)) {}

private:
    advlock::lock lock_;
};

// A set of locks taken all or nothing (Session::acquire_all): lock i holds
// key i; released together, in one round trip on PostgreSQL.
class LockSet {
public:
    void release() { set_.release(); }
    void check() const { set_.check(); }
    void verify(bool strict) { set_.verify(strict); }
    bool held() const { return set_.held(); }
    std::size_t size() const { return set_.size(); }
    // The key lock i holds on the server (Lock::server_key); throws
    // std::out_of_range, an internal error, past size().
    Key server_key(std::size_t i) const { return Key(set_[i].key()); }
    explicit LockSet(advlock::lock_set set) : set_(std::move(set)) {}

private:
    advlock::lock_set set_;
};

// Ends the waits it is given, and only those (advlock::cancel_token): a
// runtime interrupting one thread's wait (Java's Thread.interrupt, Ruby's
// Ctrl-C) cancels that wait's token, not the whole session.
class CancelToken {
public:
    // Any thread, any time; sticky. Never throws.
    void cancel() noexcept { advlock_cancel_token_cancel(token_.c_handle()); }
    const advlock::cancel_token &native() const { return token_; }

private:
    advlock::cancel_token token_;
};

struct SessionOptions {
    std::string application_name;
    bool allow_standby = false;
    bool allow_pooler = false;
    std::int32_t heartbeat_interval_ms = 0;
    std::int32_t heartbeat_deadline_ms = 0;
    std::int32_t stop_grace_ms = 0;
};

// One session. close() may come from any thread at any time (the C ABI
// cancels waits in progress and makes later calls throw misuse); deleting the
// object frees it and must be the last use, which each language leaves to its
// garbage collector (the last owner).
class Session {
public:
    static Session *open(const std::string &url, const SessionOptions &options) {
        advlock::session_options o;
        o.application_name = options.application_name;
        o.allow_standby = options.allow_standby;
        o.allow_pooler = options.allow_pooler;
        o.heartbeat_interval_ms = options.heartbeat_interval_ms;
        o.heartbeat_deadline_ms = options.heartbeat_deadline_ms;
        o.stop_grace_ms = options.stop_grace_ms;
        return new Session(advlock::session::open(url, o));
    }

    // nullptr when another session, or another lock of this one, holds it.
    Lock *try_lock(const Key &key, bool shared) {
        std::optional<advlock::lock> lock = session_.try_lock(key.native(), mode(shared));
        return lock ? new Lock(std::move(*lock)) : nullptr;
    }
    // nullptr when the wait ran out; timeout_ms -1 waits as long as it takes.
    Lock *lock(const Key &key, bool shared, std::int64_t timeout_ms) {
        std::optional<advlock::lock> lock = session_.lock_within(key.native(), timeout_ms, mode(shared));
        return lock ? new Lock(std::move(*lock)) : nullptr;
    }
    // Every option: timeout_ms 0 tries, -1 waits as long as it takes;
    // reentrant makes the calling thread's reentrant locks one owner; cancel
    // (may be null) ends this wait only; slots N >= 2 takes any one free slot
    // of N (0: the lock itself); fenced issues a fencing token with the grant.
    // nullptr when another owner holds it (every slot) and the time ran out.
    Lock *acquire(const Key &key, bool shared, std::int64_t timeout_ms, bool reentrant, const CancelToken *cancel,
                  std::int64_t slots, bool fenced) {
        return acquire_as(key, shared, timeout_ms, reentrant, cancel, 0, slots, fenced);
    }
    // The same for a runtime thread that is not an OS thread (a Java virtual
    // thread): owner_id is the runtime's nonzero id for it (advlock_lock_options),
    // signed here because Java has no unsigned long.
    Lock *acquire_as(const Key &key, bool shared, std::int64_t timeout_ms, bool reentrant, const CancelToken *cancel,
                     std::int64_t owner_id, std::int64_t slots, bool fenced) {
        std::optional<advlock::lock> lock = session_.acquire(
            key.native(), mode(shared), lock_options(timeout_ms, reentrant, cancel, owner_id, slots, fenced));
        return lock ? new Lock(std::move(*lock)) : nullptr;
    }
    // A set of locks, all or nothing (advlock_session_acquire_all), with
    // acquire_as's options; nullptr with none held when not all were free at
    // once before the time ran out. slots and fenced are passed on only so the
    // core refuses them (EINVAL) as it does for every binding: a set has neither.
    LockSet *acquire_all(const std::vector<Key> &keys, bool shared, std::int64_t timeout_ms, bool reentrant,
                         const CancelToken *cancel, std::int64_t owner_id, std::int64_t slots = 0,
                         bool fenced = false) {
        std::vector<advlock::key> native;
        native.reserve(keys.size());
        for (const Key &key : keys) native.push_back(key.native());
        std::optional<advlock::lock_set> set = session_.acquire_all(
            native, mode(shared), lock_options(timeout_ms, reentrant, cancel, owner_id, slots, fenced));
        return set ? new LockSet(std::move(*set)) : nullptr;
    }
    void cancel() { session_.cancel(); }
    // For a language runtime taking its thread back from a wait in progress
    // (no throw).
    void cancel_quietly() noexcept { advlock_session_cancel(session_.c_handle()); }
    void check() { session_.check(); }
    void verify() { session_.verify(); }
    std::int64_t server_id() { return session_.server_id(); }

    HolderList holders(const Registry *registry, const Key *only) {
        std::optional<advlock::key> key;
        if (only) key = only->native();
        HolderList list;
        for (const advlock::holder &h :
             session_.holders(registry ? &registry->native() : nullptr, key ? &*key : nullptr, &list.note)) {
            list.rows.push_back(Holder{Key(h.key), h.lock_name.value_or(""), h.mode == advlock::mode::shared, h.granted,
                                  h.is_self, h.details_hidden, h.server_id, h.user.value_or(""),
                                  h.application_name.value_or(""), h.client_addr.value_or(""),
                                  h.client_hostname.value_or(""), h.backend_start_unix_us, h.wait_start_unix_us});
        }
        return list;
    }

    // Blocks until the session's locks are lost (returns why) or the session
    // is closed (returns ""): advlock_session_wait_lost. One thread of the
    // binding waits here and tells the user's listeners.
    std::string wait_until_lost() {
        if (advlock_session_wait_lost(session_.c_handle(), ADVLOCK_WAIT_FOREVER) == ADVLOCK_ELOST) {
            return advlock_error_last()->message;
        }
        return "";
    }

    // Readable once the locks are lost or the session is closed
    // (advlock_session_loss_fd), for a runtime that waits with select.
    int loss_fd() { return session_.loss_fd(); }

    // Ends the connection, releasing every lock; later calls throw misuse.
    // Any thread, any time, twice: waits in progress are cancelled.
    void close() noexcept { session_.close(); }

private:
    explicit Session(advlock::session session) : session_(std::move(session)) {}
    static advlock::mode mode(bool shared) { return shared ? advlock::mode::shared : advlock::mode::exclusive; }
    // acquire_as's and acquire_all's arguments as the C++ wrapper's options.
    static advlock::lock_options lock_options(std::int64_t timeout_ms, bool reentrant, const CancelToken *cancel,
                                              std::int64_t owner_id, std::int64_t slots, bool fenced) {
        advlock::lock_options options;
        options.timeout_ms = timeout_ms;
        options.reentrant = reentrant;
        options.cancel = cancel ? &cancel->native() : nullptr;
        options.owner_id = static_cast<std::uint64_t>(owner_id);
        options.slots = slot_count(slots, "slots");
        options.fenced = fenced;
        return options;
    }

    advlock::session session_;
};

// One row of the C ABI's status table (advlock_status_at): each language maps
// kind or class_name (LockLost) to its exception class at load time instead
// of restating numbers.
struct StatusInfo {
    int status;
    std::string name, kind, class_name, parent, summary;  // class_name: the Kind column
};

inline std::vector<StatusInfo> status_table() {
    std::vector<StatusInfo> rows;
    for (std::size_t i = 0; const advlock_status_info *info = advlock_status_at(i); ++i) {
        rows.push_back(StatusInfo{info->status, info->name, info->kind, info->Kind, info->parent, info->summary});
    }
    return rows;
}

inline std::string version() { return advlock_version(); }
// The advlock_status a server error with this SQLSTATE means, as a number
// each language maps to its exception class as it maps every other status.
inline int status_from_sqlstate(const std::string &sqlstate) { return advlock::status_from_sqlstate(sqlstate); }
inline std::string name_key_sql(const std::string &name) { return advlock::name_key_sql(name); }
// The fence table and functions to create once per database (advlock_sql_fence).
inline std::string fence_sql() { return advlock::fence_sql(); }

}  // namespace advlock_swig
