// sessions.cpp: advlock.Session, advlock.Lock and advlock.LockSet.
//
// Four things here are Python-specific and so live here, not in the core:
//  - the GIL is released around every call that may wait on the network, so
//    other Python threads run while one waits for a lock;
//  - a wait runs on the calling thread (the core knows a lock's owner by its
//    thread); on the main thread, Ctrl-C cancels it (signal_watch.hpp) and
//    raises KeyboardInterrupt; a lock granted in that race is released first;
//    wait_lost on the main thread polls the loss fd beside the signal pipe,
//    for the same reason;
//  - the lost callback is a Python callable, called with the GIL from the
//    watchdog thread, and never during interpreter shutdown (open sessions are
//    closed by an atexit hook before that);
//  - advlock.aio runs the calls of many asyncio tasks on a worker thread: it
//    names each task as the owner (the C ABI's owner_id, for reentrancy and
//    the deadlock checks, which would otherwise see one thread) and ends one
//    task's wait with a cancel token of its own (CancelToken).
// Closing is the C ABI's (any thread, cancels waits, later calls are
// EMISUSE); the advlock::session is freed only with the Python object, when
// no thread can be inside it any more (each call holds a reference).
#include <pybind11/stl.h>

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <set>

#include "binding.hpp"
#include "signal_watch.hpp"

namespace advlock_python {

namespace {

advlock::mode mode_of(bool shared) { return shared ? advlock::mode::shared : advlock::mode::exclusive; }

// What try_lock() and lock() were asked for, besides the key and the wait.
struct acquire_request {
    bool shared = false;
    bool reentrant = false;
    unsigned slots = 0;  // 0: the lock itself (slots=None)
    bool fenced = false;
    std::uint64_t owner_id = 0;  // 0: the calling thread
    const advlock::cancel_token *cancel = nullptr;  // the caller's own (CancelToken), kept alive by the call

    acquire_request(bool shared_mode, bool reentrant_owner, py::handle slots_value, bool fence,
                    std::uint64_t owner = 0, const advlock::cancel_token *token = nullptr)
        : shared(shared_mode), reentrant(reentrant_owner), slots(slots_from_python(slots_value)), fenced(fence),
          owner_id(owner), cancel(token) {}

    // A wait given the caller's token ends by it only; else by signal_cancel
    // (the main thread's Ctrl-C watch) or nothing.
    advlock::lock_options options(std::int64_t timeout_ms, const advlock::cancel_token *signal_cancel) const {
        advlock::lock_options result;
        result.timeout_ms = timeout_ms;
        result.reentrant = reentrant;
        result.cancel = cancel ? cancel : signal_cancel;
        result.owner_id = owner_id;
        result.slots = slots;
        result.fenced = fenced;
        return result;
    }

private:
    // None is the C ABI's 0 (the lock itself). An explicit 0 or a negative
    // number is refused here rather than taken as "no slots": a job told "at
    // most 0 at once" must not run as an ordinary exclusive lock. The upper
    // bound is the core's (ADVLOCK_EINVAL above ADVLOCK_SLOTS_MAX).
    static unsigned slots_from_python(py::handle value) {
        if (value.is_none()) return 0;
        return count_from_python(value, "slots (None: no slots)");
    }
};

// Runs a call without the GIL, unless the interpreter is shutting down (then
// no other Python thread can need it, and releasing it is not allowed).
template <typename Call>
auto without_gil(Call &&call) {
    if (!interpreter_alive()) return call();
    py::gil_scoped_release nogil;
    return call();
}

// What is left of a wait of timeout_ms that ends at deadline: the waits
// below go round again after a signal handler ran, for the time left only
// (a wait forever stays forever).
std::int64_t ms_left(std::int64_t timeout_ms, std::chrono::steady_clock::time_point deadline) {
    if (timeout_ms == ADVLOCK_WAIT_FOREVER) return timeout_ms;
    const auto now = std::chrono::steady_clock::now();
    return now >= deadline ? 0 : std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
}

class python_lock {
public:
    python_lock(advlock::lock lock, advlock::key key, std::string label, const acquire_request &request, py::object session)
        : lock_(std::move(lock)), key_(key), label_(std::move(label)), shared_(request.shared),
          reentrant_(request.reentrant), fenced_(request.fenced), session_(std::move(session)) {}
    python_lock(python_lock &&) = default;
    // Freeing an unreleased lock never blocks (the C ABI hands the release to
    // the session's own thread), so the finalizer keeps the GIL.
    ~python_lock() = default;

    // A second release, or one after close, is the C ABI's EMISUSE.
    void release() {
        released_ = true;
        naming_errors(label_, [this] { return without_gil([this] { lock_.release(); return 0; }); });
    }
    void ensure_held() const {
        naming_errors(label_, [this] { lock_.check(); return 0; });
    }
    bool held() const { return advlock_lock_check(lock_.c_handle()) == ADVLOCK_OK; }
    void verify(bool strict) {
        naming_errors(label_, [&] { return without_gil([&] { lock_.verify(strict); return 0; }); });
    }
    void exit() {
        if (!released_) release();
    }

    const advlock::key &key() const { return key_; }
    // What the core says it holds on the server (also after release): the
    // key itself, or the slot's key; the slot number; the fencing token.
    advlock::key server_key() const {
        return naming_errors(label_, [this] { return lock_.key(); });
    }
    unsigned slot() const {
        return naming_errors(label_, [this] { return lock_.slot(); });
    }
    // The core's refusal names its C flag; a Python caller needs fence=True.
    std::int64_t fence_token() const {
        try {
            return lock_.fence_token();
        } catch (const advlock::misuse &error) {
            throw advlock::misuse(error.status(), "lock " + label_ + " was taken without a fencing token: take it "
                                                  "with fence=True (try_lock/lock)", error.sqlstate());
        }
    }
    const std::string &label() const { return label_; }
    bool shared() const { return shared_; }
    bool reentrant() const { return reentrant_; }
    bool fenced() const { return fenced_; }
    const py::object &session() const { return session_; }

private:
    advlock::lock lock_;  // after release the handle answers "released" (EMISUSE)
    bool released_ = false;
    advlock::key key_;
    std::string label_;  // the name the caller gave (key_label), for messages and repr
    bool shared_;
    bool reentrant_;
    bool fenced_;
    py::object session_;
};

// A set of locks taken all or nothing (Session.try_lock_all / lock_all): it
// releases as one, in one round trip on PostgreSQL (advlock::lock_set).
class python_lock_set {
public:
    python_lock_set(advlock::lock_set locks, std::vector<advlock::key> keys, std::string label, bool shared,
                    py::object session)
        : locks_(std::move(locks)), keys_(std::move(keys)), label_(std::move(label)), shared_(shared),
          session_(std::move(session)) {}
    python_lock_set(python_lock_set &&) = default;

    // A second release, or one after close, is the C ABI's EMISUSE (none released).
    void release() {
        released_ = true;
        naming_errors(label_, [this] { return without_gil([this] { locks_.release(); return 0; }); });
    }
    void ensure_held() const {
        naming_errors(label_, [this] { locks_.check(); return 0; });
    }
    bool held() const { return locks_.held(); }
    void verify(bool strict) {
        naming_errors(label_, [&] { return without_gil([&] { locks_.verify(strict); return 0; }); });
    }
    void exit() {
        if (!released_) release();
    }

    const std::vector<advlock::key> &keys() const { return keys_; }
    const std::string &label() const { return label_; }
    bool shared() const { return shared_; }
    const py::object &session() const { return session_; }

private:
    advlock::lock_set locks_;  // locks_[i] holds keys_[i]
    std::vector<advlock::key> keys_;
    bool released_ = false;
    std::string label_;  // "set of 'a' (key ...), 'b' (key ...)", for messages and repr
    bool shared_;
    py::object session_;
};

// Where the watchdog finds the Python callable; owned by the session object,
// which closes the C session (joining the watchdog) before dropping it.
struct lost_slot {
    py::object callback;
};

class python_session;
std::set<python_session *> &open_sessions() {
    static std::set<python_session *> sessions;  // guarded by the GIL
    return sessions;
}

class python_session {
public:
    python_session(const std::string &url, const advlock::session_options &options, py::object registry)
        : registry_object_(std::move(registry)) {
        if (!registry_object_.is_none()) registry_ = &registry_object_.cast<const advlock::registry &>();
        session_.emplace(without_gil([&] { return advlock::session::open(url, options); }));
        open_sessions().insert(this);
    }
    python_session(const python_session &) = delete;
    // The last owner: frees (and closes, if still open) the C session.
    ~python_session() {
        open_sessions().erase(this);
        without_gil([&] { session_.reset(); return 0; });
    }

    py::object try_lock(py::object self, py::handle key_value, const acquire_request &request) {
        const advlock::key key = to_key(key_value, registry_);
        std::string label = key_label(key_value, key);
        advlock::session &session = *session_;
        std::optional<advlock::lock> lock = naming_errors(label, [&] {
            return without_gil([&] { return session.acquire(key, mode_of(request.shared), request.options(0, nullptr)); });
        });
        if (!lock) return py::none();
        return py::cast(python_lock(std::move(*lock), key, std::move(label), request, std::move(self)));
    }

    py::object lock(py::object self, py::handle key_value, py::handle timeout, const acquire_request &request) {
        const advlock::key key = to_key(key_value, registry_);
        std::string label = key_label(key_value, key);
        const std::int64_t timeout_ms = timeout_ms_from_seconds(timeout);
        advlock::session &session = *session_;
        std::optional<advlock::lock> lock = naming_errors(label, [&] {
            return timeout_ms == 0 ? without_gil([&] {
                                         return session.acquire(key, mode_of(request.shared), request.options(0, nullptr));
                                     })
                                   : wait(session, key, timeout_ms, request);
        });
        if (!lock) {
            const std::string held = request.slots > 1 ? ": all " + std::to_string(request.slots) +
                                                             " of its slots are held by other sessions or other Locks "
                                                             "of this one"
                                                       : " is held by another session or another Lock of this one";
            throw advlock::error(ADVLOCK_NOT_ACQUIRED,
                                 "lock " + label + held +
                                     (timeout_ms == 0 ? std::string(" (timeout=0: no wait)")
                                                      : "; gave up after " + std::string(py::str(timeout)) + " s"),
                                 "");
        }
        return py::cast(python_lock(std::move(*lock), key, std::move(label), request, std::move(self)));
    }

    py::object try_lock_all(py::object self, py::handle keys_value, const acquire_request &request) {
        key_set set = to_key_set(keys_value);
        advlock::session &session = *session_;
        std::optional<advlock::lock_set> locks = naming_errors(set.label, [&] {
            return without_gil([&] { return session.acquire_all(set.keys, mode_of(request.shared), request.options(0, nullptr)); });
        });
        if (!locks) return py::none();
        return py::cast(python_lock_set(std::move(*locks), std::move(set.keys), std::move(set.label), request.shared,
                                        std::move(self)));
    }

    py::object lock_all(py::object self, py::handle keys_value, py::handle timeout, const acquire_request &request) {
        key_set set = to_key_set(keys_value);
        const std::int64_t timeout_ms = timeout_ms_from_seconds(timeout);
        advlock::session &session = *session_;
        const advlock::mode mode = mode_of(request.shared);
        std::optional<advlock::lock_set> locks = naming_errors(set.label, [&] {
            return waited(timeout_ms, request, [&](std::int64_t left, const advlock::cancel_token *token) {
                return session.acquire_all(set.keys, mode, request.options(left, token));
            });
        });
        if (!locks) {
            throw advlock::error(ADVLOCK_NOT_ACQUIRED,
                                 "lock " + set.label + ": not all of them were free at once (none is held now)" +
                                     (timeout_ms == 0 ? std::string(" (timeout=0: no wait)")
                                                      : "; gave up after " + std::string(py::str(timeout)) + " s"),
                                 "");
        }
        return py::cast(python_lock_set(std::move(*locks), std::move(set.keys), std::move(set.label), request.shared,
                                        std::move(self)));
    }

    void cancel() {
        without_gil([&] { session_->cancel(); return 0; });
    }
    void check() { session_->check(); }
    // Lost, or closed: either way it holds nothing any more.
    bool lost() { return advlock_session_check(session_->c_handle()) != ADVLOCK_OK; }
    void verify() {
        without_gil([&] { session_->verify(); return 0; });
    }
    std::int64_t server_id() { return session_->server_id(); }
    int loss_fd() { return session_->loss_fd(); }

    // Returns when the time ran out; raises LockLost once lost, Misuse once
    // closed (advlock_session_wait_lost), and on the main thread whatever a
    // signal handler raises (KeyboardInterrupt).
    void wait_lost(py::handle timeout) {
        const std::int64_t timeout_ms = timeout_ms_from_seconds(timeout);
        if (!interpreter_alive() || !on_main_thread()) {
            without_gil([&] { session_->wait_lost(timeout_ms); return 0; });
            return;
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        const int loss = session_->loss_fd();
        signal_wakeup wakeup;
        for (;;) {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            const std::int64_t left = ms_left(timeout_ms, deadline);
            pollfd fds[2] = {{loss, POLLIN, 0}, {wakeup.fd(), POLLIN, 0}};
            const int ready = without_gil([&] { return ::poll(fds, 2, static_cast<int>(left)); });
            if (ready < 0 && errno != EINTR) {
                throw advlock::error(ADVLOCK_ERROR, std::string("advlock.Session.wait_lost: poll: ") +
                                                        std::strerror(errno), "");
            }
            if (fds[1].revents & POLLIN) wakeup.forward();  // its handler runs at the top
            if (fds[0].revents != 0 || ready == 0) break;  // lost or closed, or the time ran out
        }
        session_->wait_lost(0);  // lost: LockLost with why; closed: Misuse; else the time ran out
    }

    // An advlock.Holders: a list of Holder with .note, what the server could not show.
    py::object holders(py::handle only) {
        std::optional<advlock::key> key;
        if (!only.is_none()) key = to_key(only, registry_);
        std::string note;
        std::vector<advlock::holder> rows;
        rows = without_gil([&] { return session_->holders(registry_, key ? &*key : nullptr, &note); });
        py::object list = py::module_::import("advlock._advlock").attr("Holders")(py::cast(std::move(rows)));
        list.attr("note") = note;
        return list;
    }

    void on_lost(py::object callback) {
        if (!callback.is_none() && !PyCallable_Check(callback.ptr())) {
            throw py::type_error("on_lost takes a callable (why: str) -> None, or None");
        }
        slot_->callback = std::move(callback);
        lost_slot *slot = slot_.get();
        try {
            session_->on_lost([slot](const std::string &why) {
                if (!interpreter_alive()) return;
                py::gil_scoped_acquire gil;
                // A reference of its own: the callback may close the session,
                // which lets go of slot->callback.
                py::object callback = slot->callback;
                if (callback.is_none()) return;
                try {
                    callback(why);
                } catch (py::error_already_set &error) {
                    error.discard_as_unraisable("advlock lost callback");
                }
            });
        } catch (const advlock::error &) {
            slot_->callback = py::none();  // closed: it will never be called
            throw;
        }
    }

    // advlock's close: any thread, any time, twice; waits of other threads
    // end (Misuse), and the lost callback is not called any more.
    void close() {
        open_sessions().erase(this);
        without_gil([&] { session_->close(); return 0; });
        slot_->callback = py::none();
    }
    bool closed() { return advlock_session_check(session_->c_handle()) == ADVLOCK_EMISUSE; }
    const py::object &registry() const { return registry_object_; }

private:
    static bool on_main_thread() {
        py::module_ threading = py::module_::import("threading");
        return threading.attr("main_thread")().attr("ident").cast<unsigned long>() == PyThread_get_thread_ident();
    }

    // A wait on the calling thread, without the GIL: the core knows a lock's
    // owner by its thread. attempt(ms, signal_token) makes one acquire call
    // and returns what it got (an empty optional: not acquired). On the main
    // thread a signal with a Python handler ends it through its own cancel
    // token (not the session's other waits); the handler then runs here: if
    // it raises (KeyboardInterrupt), that is raised, after releasing what was
    // granted in the race; if not, the wait goes on for the time left.
    template <typename Attempt>
    static auto waited(std::int64_t timeout_ms, const acquire_request &request, Attempt &&attempt)
        -> decltype(attempt(timeout_ms, nullptr)) {  // spelled out: callers above use it before this point
        using result_type = decltype(attempt(timeout_ms, nullptr));
        if (timeout_ms == 0 || !interpreter_alive() || request.cancel || !on_main_thread()) {
            return without_gil([&] { return attempt(timeout_ms, nullptr); });
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        signal_watch watch;
        for (;;) {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            const std::int64_t left = ms_left(timeout_ms, deadline);
            const advlock::cancel_token &token = watch.token();
            result_type result;
            try {
                result = without_gil([&] { return attempt(left, &token); });
            } catch (const advlock::canceled &) {
                if (!watch.signal_cancelled_the_wait()) throw;  // Session.cancel()
                continue;                                        // its handler runs at the top
            }
            if (PyErr_CheckSignals() != 0) {
                if (result) without_gil([&] { result.reset(); return 0; });  // granted in the race
                throw py::error_already_set();
            }
            return result;
        }
    }

    static std::optional<advlock::lock> wait(advlock::session &session, const advlock::key &key,
                                             std::int64_t timeout_ms, const acquire_request &request) {
        const advlock::mode mode = mode_of(request.shared);
        return waited(timeout_ms, request, [&](std::int64_t left, const advlock::cancel_token *token) {
            return session.acquire(key, mode, request.options(left, token));
        });
    }

    // The keys of try_lock_all/lock_all (any iterable of what try_lock takes,
    // but not one key: a str would be its characters, a pair its two numbers),
    // and how messages name the set.
    struct key_set {
        std::vector<advlock::key> keys;
        std::string label;
    };
    key_set to_key_set(py::handle keys_value) const {
        if (py::isinstance<py::str>(keys_value) || py::isinstance<py::bytes>(keys_value) ||
            py::isinstance<advlock::key>(keys_value) ||
            !py::hasattr(keys_value, "__iter__")) {
            throw py::type_error("try_lock_all/lock_all take a list of keys, e.g. [\"daily_sales\", \"inventory\"] "
                                 "(a pair key is a tuple in it: [(100, 1), (100, 2)]); for one key, use try_lock/lock");
        }
        key_set set;
        set.label = "set of ";
        for (py::handle value : keys_value) {
            const advlock::key key = to_key(value, registry_);
            if (!set.keys.empty()) set.label += ", ";
            set.label += key_label(value, key);
            set.keys.push_back(key);
        }
        return set;
    }

    py::object registry_object_;
    const advlock::registry *registry_ = nullptr;
    std::unique_ptr<lost_slot> slot_ = std::make_unique<lost_slot>();
    std::optional<advlock::session> session_;  // set until the destructor: the Python object owns it
};

py::object utc_datetime(std::int64_t unix_us) {
    if (unix_us == 0) return py::none();
    py::module_ datetime = py::module_::import("datetime");
    return datetime.attr("datetime").attr("fromtimestamp")(static_cast<double>(unix_us) / 1e6,
                                                           datetime.attr("timezone").attr("utc"));
}

void close_open_sessions() {
    while (!open_sessions().empty()) (*open_sessions().begin())->close();
}

}  // namespace

void register_sessions(py::module_ &module) {
    py::class_<advlock::cancel_token>(module, "CancelToken", R"doc(
Ends the Session.lock() waits it is given (cancel=...), and only those, with
Canceled; sticky: a wait started with a cancelled token ends at once.)doc")
        .def(py::init<>())
        // Without the GIL: ending a wait on the server sends it a cancel request
        // (PQcancel, a connection of its own) from the calling thread.
        .def("cancel", [](advlock::cancel_token &token) { without_gil([&] { token.cancel(); return 0; }); },
             "Any thread, any time, also twice. Ending a wait on the server sends it a cancel request from "
             "this thread (a short connection of its own): keep it off an event loop.");

    py::class_<python_lock>(module, "Lock", R"doc(
One held advisory lock. Release it with release() or by leaving its `with`
block. ensure_held() costs no round trip: call it in the job's loops, it
raises LockLost once the session's locks are known to be gone.)doc")
        .def("release", &python_lock::release,
             "Release now. Raises LockLost when the lock had been lost (the work may have overlapped another "
             "holder), Misuse when already released or the session is closed.")
        .def("ensure_held", &python_lock::ensure_held, "No round trip: raises LockLost once the lock is known lost.")
        .def("verify", &python_lock::verify, py::arg("strict") = false,
             "One round trip proving the session still holds its locks; strict also asks pg_locks for this key.")
        .def_property_readonly("held", &python_lock::held, "True until released or known lost (no round trip).")
        .def_property_readonly("key", &python_lock::key, "The key asked for (try_lock/lock's key, with its name).")
        .def_property_readonly("server_key", &python_lock::server_key,
                               "The key held on the server: key itself, or for a slot lock the slot's key, "
                               "key.slot(slot). The key to check a fencing token against. Valid after release too.")
        .def_property_readonly("slot", &python_lock::slot,
                               "The slot held, 1..N, for a lock taken with slots=N; 0 for a lock taken without.")
        .def_property_readonly("fenced", &python_lock::fenced, "True when taken with fence=True.")
        .def_property_readonly("fence_token", &python_lock::fence_token,
                               "The fencing token issued with the grant (fence=True): greater than every token "
                               "issued before for server_key. Pass the lock to advlock.fence_check() in the job's "
                               "own transaction. Raises Misuse for a lock taken without fence=True.")
        .def("fence_check", [](py::object self, py::object conn) {
                 // The check runs through the caller's driver, which advlock/fence.py knows how to use.
                 py::module_::import("advlock.fence").attr("fence_check")(conn, self);
             }, py::arg("conn"),
             "advlock.fence_check(conn, self): check this lock's fencing token inside conn's transaction (the "
             "job's own psycopg, psycopg2 or DB-API connection) before committing; raises FencedOut once a newer "
             "holder took the lock.")
        .def_property_readonly("shared", &python_lock::shared)
        .def_property_readonly("reentrant", &python_lock::reentrant,
                               "True when taken with reentrant=True: one owner with the thread's other reentrant Locks.")
        .def_property_readonly("session", &python_lock::session)
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](python_lock &lock, py::args) {
            lock.exit();
            return false;
        })
        .def("__repr__", [](const python_lock &lock) {
            const unsigned slot = lock.slot();
            return "<advlock.Lock " + lock.label() + (slot ? ", slot " + std::to_string(slot) : std::string()) +
                   (lock.shared() ? ", shared" : ", exclusive") + (lock.reentrant() ? ", reentrant" : "") +
                   (lock.fenced() ? ", fence token " + std::to_string(lock.fence_token()) : std::string()) +
                   (lock.held() ? ", held>" : ", not held>");
        });

    py::class_<python_lock_set>(module, "LockSet", R"doc(
Locks taken all or nothing with Session.try_lock_all() or lock_all(): every
one of them is held, or none is. Release them together with release() or by
leaving the `with` block (one round trip on PostgreSQL).)doc")
        .def("release", &python_lock_set::release,
             "Release every lock of the set now. Raises LockLost when they had been lost, Misuse when already "
             "released or the session is closed (then none is released).")
        .def("ensure_held", &python_lock_set::ensure_held,
             "No round trip: raises LockLost once the locks are known lost.")
        .def("verify", &python_lock_set::verify, py::arg("strict") = false,
             "One round trip proving the session still holds its locks; strict also asks pg_locks for each key.")
        .def_property_readonly("held", &python_lock_set::held, "True until released or known lost (no round trip).")
        .def_property_readonly("keys", &python_lock_set::keys, "The keys, in the order they were asked for.")
        .def_property_readonly("shared", &python_lock_set::shared)
        .def_property_readonly("session", &python_lock_set::session)
        .def("__len__", [](const python_lock_set &set) { return set.keys().size(); })
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](python_lock_set &set, py::args) {
            set.exit();
            return false;
        })
        .def("__repr__", [](const python_lock_set &set) {
            return "<advlock.LockSet " + set.label() + (set.shared() ? ", shared" : ", exclusive") +
                   (set.held() ? ", held>" : ", not held>");
        });

    // A list subclass, so that code treating the answer as a list keeps working.
    py::dict holders_namespace;
    holders_namespace["__module__"] = "advlock._advlock";
    holders_namespace["__slots__"] = py::make_tuple("note");
    holders_namespace["__doc__"] =
        "What Session.holders answers: a list of Holder, and .note (str), what the server could not show "
        "('' when it showed everything: MariaDB lists no waiters; without metadata_lock_info or "
        "performance_schema only the registry's locks and the one asked for are looked up).";
    module.attr("Holders") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject *>(&PyType_Type))(
        "Holders", py::make_tuple(py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject *>(&PyList_Type))),
        holders_namespace);

    py::class_<advlock::holder>(module, "Holder", "A session holding or waiting for an advisory lock (pg_locks + pg_stat_activity).")
        .def_readonly("key", &advlock::holder::key)
        .def_readonly("name", &advlock::holder::lock_name, "The registry's name for the key, or None.")
        .def_property_readonly("shared", [](const advlock::holder &h) { return h.mode == advlock::mode::shared; })
        .def_readonly("granted", &advlock::holder::granted, "True: holds the lock; False: waits for it.")
        .def_readonly("server_id", &advlock::holder::server_id,
                      "The holder's Session.server_id: its PostgreSQL backend pid or MySQL connection id "
                      "(0 for a prepared transaction).")
        .def_readonly("is_self", &advlock::holder::is_self)
        .def_readonly("user", &advlock::holder::user)
        .def_readonly("application_name", &advlock::holder::application_name)
        .def_readonly("client_addr", &advlock::holder::client_addr)
        .def_readonly("client_hostname", &advlock::holder::client_hostname)
        .def_property_readonly("backend_start", [](const advlock::holder &h) { return utc_datetime(h.backend_start_unix_us); },
                               "When the holder connected (UTC), or None when hidden.")
        .def_property_readonly("wait_start", [](const advlock::holder &h) { return utc_datetime(h.wait_start_unix_us); },
                               "When a waiter started waiting (PostgreSQL 14+), else None.")
        .def_readonly("details_hidden", &advlock::holder::details_hidden,
                      "True when the server hides user/application/client from this role (grant pg_read_all_stats).")
        .def("__repr__", [](const advlock::holder &h) {
            return "<advlock.Holder " + h.key.to_string() + " server_id=" + std::to_string(h.server_id) +
                   (h.granted ? " granted" : " waiting") + ">";
        });

    py::class_<python_session>(module, "Session", R"doc(
One dedicated database connection that holds locks (never pooled); create it
with advlock.connect(). Closing it releases every lock it holds.

One lock, one owner, as with threading.Lock: each Lock is its own owner, so
threads sharing a session exclude each other as sessions do, and a thread
does not take again a lock it holds (try_lock: None; lock: Deadlock). With
reentrant=True, as threading.RLock, the calling thread's reentrant Locks of
the session are one owner: it may take the lock again (each Lock releases
once), other threads and non-reentrant Locks stay excluded. Shared Locks never
exclude each other.)doc")
        .def(py::init([](const std::string &url, py::object application_name, bool allow_standby, bool allow_pooler,
                         py::object heartbeat_interval, py::object heartbeat_deadline, py::object stop_grace,
                         py::object registry) {
                 advlock::session_options options;
                 if (!application_name.is_none()) options.application_name = application_name.cast<std::string>();
                 options.allow_standby = allow_standby;
                 options.allow_pooler = allow_pooler;
                 if (!heartbeat_interval.is_none())
                     options.heartbeat_interval_ms = static_cast<std::int32_t>(timeout_ms_from_seconds(heartbeat_interval));
                 if (!heartbeat_deadline.is_none())
                     options.heartbeat_deadline_ms = static_cast<std::int32_t>(timeout_ms_from_seconds(heartbeat_deadline));
                 if (!stop_grace.is_none())
                     options.stop_grace_ms = static_cast<std::int32_t>(timeout_ms_from_seconds(stop_grace));
                 return std::make_unique<python_session>(url, options, std::move(registry));
             }),
             py::arg("url"), py::kw_only(), py::arg("application_name") = py::none(), py::arg("allow_standby") = false,
             py::arg("allow_pooler") = false, py::arg("heartbeat_interval") = py::none(),
             py::arg("heartbeat_deadline") = py::none(), py::arg("stop_grace") = py::none(),
             py::arg("registry") = py::none())
        .def("try_lock", [](py::object self, py::handle key, bool shared, bool reentrant, py::handle slots, bool fence,
                            std::uint64_t owner_id) {
                 return self.cast<python_session &>().try_lock(
                     self, key, acquire_request(shared, reentrant, slots, fence, owner_id));
             }, py::arg("key"), py::kw_only(), py::arg("shared") = false, py::arg("reentrant") = false,
             py::arg("slots") = py::none(), py::arg("fence") = false, py::arg("owner_id") = 0,
             "Take the lock without waiting: a Lock, or None when another session or another Lock of this "
             "session holds it (each Lock is its own owner, as threading.Lock; reentrant=True: the calling "
             "thread's reentrant Locks of this session are one owner and may take it again, as threading.RLock). "
             "slots=N (1..SLOTS_MAX): take any one free slot of N, \"at most N at once\" (None when all N are "
             "held; Lock.slot says which, Lock.server_key its key). fence=True (PostgreSQL only, exclusive, not "
             "reentrant; Unsupported elsewhere): issue a fencing token with the grant (Lock.fence_token, "
             "advlock.fence_check). owner_id: see lock().")
        .def("lock", [](py::object self, py::handle key, py::handle timeout, bool shared, bool reentrant,
                        py::handle slots, bool fence, std::uint64_t owner_id, const advlock::cancel_token *cancel) {
                 return self.cast<python_session &>().lock(
                     self, key, timeout, acquire_request(shared, reentrant, slots, fence, owner_id, cancel));
             }, py::arg("key"), py::kw_only(), py::arg("timeout") = py::none(), py::arg("shared") = false,
             py::arg("reentrant") = false, py::arg("slots") = py::none(), py::arg("fence") = false,
             py::arg("owner_id") = 0, py::arg("cancel") = py::none(),
             "Take the lock, waiting up to timeout seconds (None: as long as it takes) for other sessions and for "
             "other Locks of this one (threads sharing a session exclude each other). Raises NotAcquired when "
             "the time runs out, Canceled when cancel() interrupts it, Misuse when close() does, Deadlock (also when this "
             "thread holds the lock itself through another Lock: release it, or take both reentrant=True). "
             "Ctrl-C ends this wait only and raises KeyboardInterrupt. A failed wait never leaves a lock behind. "
             "slots=N: any one free slot of N, waiting for the first to free; fence=True: a fencing token "
             "(see try_lock). owner_id (nonzero): who owns the Lock for reentrant=True and the Deadlock checks, "
             "instead of the calling thread, for callers whose tasks share threads (advlock.aio passes each "
             "task's). cancel: a CancelToken ending this wait only (Canceled); the caller then handles Ctrl-C.")
        .def("try_lock_all", [](py::object self, py::handle keys, bool shared, bool reentrant, std::uint64_t owner_id) {
                 return self.cast<python_session &>().try_lock_all(
                     self, keys, acquire_request(shared, reentrant, py::none(), false, owner_id));
             }, py::arg("keys"), py::kw_only(), py::arg("shared") = false, py::arg("reentrant") = false,
             py::arg("owner_id") = 0,
             "Take a set of locks all or nothing, without waiting (a job that needs \"daily_sales\" and "
             "\"inventory\" at once): a LockSet holding every one, or None with none held when any is held "
             "elsewhere. keys: a list of distinct keys as try_lock takes them (one round trip on PostgreSQL "
             "whatever their number). shared, reentrant, owner_id: as try_lock.")
        .def("lock_all", [](py::object self, py::handle keys, py::handle timeout, bool shared, bool reentrant,
                            std::uint64_t owner_id, const advlock::cancel_token *cancel) {
                 return self.cast<python_session &>().lock_all(
                     self, keys, timeout, acquire_request(shared, reentrant, py::none(), false, owner_id, cancel));
             }, py::arg("keys"), py::kw_only(), py::arg("timeout") = py::none(), py::arg("shared") = false,
             py::arg("reentrant") = false, py::arg("owner_id") = 0, py::arg("cancel") = py::none(),
             "Take a set of locks all or nothing, waiting up to timeout seconds (None: as long as it takes) until "
             "every one is free at once; a LockSet. Every set is taken in one order (ascending by key) whatever "
             "the order of keys, so jobs waiting for overlapping sets never deadlock each other. Raises "
             "NotAcquired when the time runs out (none held), and as lock() otherwise (Canceled, Misuse, "
             "Deadlock, KeyboardInterrupt on Ctrl-C); a failed wait never leaves a lock behind.")
        .def("cancel", &python_session::cancel, "Interrupt every lock() wait of the session, on all threads.")
        .def("check", &python_session::check, "No round trip: raises LockLost once the session's locks are known lost.")
        .def_property_readonly("lost", &python_session::lost, "True once the session's locks are known lost (or it is closed).")
        .def("verify", &python_session::verify, "One round trip proving this is still the session that took its locks.")
        .def("holders", &python_session::holders, py::arg("key") = py::none(),
             "Who holds or waits for advisory locks (only `key`'s when given), never by taking a lock: pg_locks "
             "on PostgreSQL; on MySQL/MariaDB what the server can show, with Holders.note saying what it could not.")
        .def("on_lost", &python_session::on_lost, py::arg("callback"),
             "Call callback(why) once when the locks are lost, from advlock's watchdog thread (None removes it).")
        .def("wait_lost", &python_session::wait_lost, py::arg("timeout") = py::none(),
             "Block (without the GIL) until the locks are lost: raises LockLost (saying why) then, Misuse once the "
             "session is closed (also by another thread meanwhile); returns None when timeout seconds (None: no "
             "limit) passed first. On the main thread Ctrl-C ends it with KeyboardInterrupt.")
        .def("loss_fd", &python_session::loss_fd,
             "A file descriptor that turns readable once the locks are lost or the session is closed, and stays "
             "so: for select.select, selectors or asyncio's loop.add_reader; then call check(). Never read from "
             "it nor close it: advlock owns it, and it stays open as long as the session object lives.")
        .def_property_readonly("server_id", &python_session::server_id,
                               "The server's id for the session: pg_backend_pid() on PostgreSQL, CONNECTION_ID() on "
                               "MySQL/MariaDB, the process id for local locks.")
        .def_property_readonly("registry", &python_session::registry)
        .def_property_readonly("closed", &python_session::closed)
        .def("close", &python_session::close,
             "Close the connection, releasing every lock. Safe from any thread, also while other threads wait on "
             "the session (their lock() raises Misuse), and twice. Every later call raises Misuse.")
        .def("__enter__", [](py::object self) { return self; })
        .def("__exit__", [](python_session &session, py::args) {
            session.close();
            return false;
        });

    // Sessions still open when Python exits are closed first, while their lost
    // callbacks could still run: nothing calls into a finalizing interpreter.
    py::module_::import("atexit").attr("register")(py::cpp_function(&close_open_sessions));
}

}  // namespace advlock_python
