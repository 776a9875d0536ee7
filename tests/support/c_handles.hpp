// RAII for the C handles in tests, and small helpers that fail the test with
// advlock's own message when a call goes wrong.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "advlock.h"
#include "support/targets.hpp"
#include "support/test_postgres.hpp"

namespace advlock::test {

struct SessionClose {
    void operator()(advlock_session *s) const { advlock_session_free(s); }
};
// A test's lock handle releases at scope exit, as a guard does: freeing an
// unreleased lock only hands the release over (it must never block, in a
// garbage collector's finalizer), so a test that checks from another session
// right after would race it. Tests of freeing itself call advlock_lock_free.
struct LockFree {
    void operator()(advlock_lock *l) const {
        advlock_lock_release(l);  // EMISUSE when released already or its session closed: nothing to do then
        advlock_lock_free(l);
    }
};
struct HoldersFree {
    void operator()(advlock_holders *h) const { advlock_holders_free(h); }
};
using Session = std::unique_ptr<advlock_session, SessionClose>;
using Lock = std::unique_ptr<advlock_lock, LockFree>;
using Holders = std::unique_ptr<advlock_holders, HoldersFree>;

inline Session open_session(const char *application_name = nullptr, const std::string &url = postgres_url()) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.application_name = application_name;
    advlock_session *session = nullptr;
    const advlock_status status = advlock_session_open(&session, url.c_str(), &options);
    EXPECT_EQ(status, ADVLOCK_OK) << advlock_error_last()->message;
    return Session(session);
}

// The lock, or nullptr when ADVLOCK_NOT_ACQUIRED; fails the test on errors.
inline Lock take(const Session &session, const advlock_key &key, advlock_mode mode = ADVLOCK_EXCLUSIVE) {
    advlock_lock *lock = nullptr;
    const advlock_status status = advlock_session_try_lock(&lock, session.get(), of_key(key), mode);
    EXPECT_TRUE(status == ADVLOCK_OK || status == ADVLOCK_NOT_ACQUIRED) << advlock_error_last()->message;
    EXPECT_EQ(lock == nullptr, status != ADVLOCK_OK);
    return Lock(lock);
}

// The lock, waiting on the server up to timeout_ms; nullptr when it ran out.
// For a lock whose holder just closed its connection: the server frees it on
// its own time, shortly after the close returns.
inline Lock take_waiting(const Session &session, const advlock_key &key, int64_t timeout_ms = 30000) {
    advlock_lock *lock = nullptr;
    const advlock_status status = advlock_session_lock(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE, timeout_ms);
    EXPECT_TRUE(status == ADVLOCK_OK || status == ADVLOCK_NOT_ACQUIRED) << advlock_error_last()->message;
    return Lock(lock);
}

// advlock_session_acquire of the key (or, given, of the name) with the
// options tests vary; the handle, or nullptr, goes to *out.
inline advlock_status acquire(Lock *out, const Session &session, const advlock_key &key, advlock_mode mode,
                              int64_t timeout_ms, bool reentrant = false, advlock_cancel_token *cancel = nullptr,
                              const std::string *name = nullptr, uint64_t owner_id = 0) {
    advlock_lock_options options;
    advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION);
    options.owner_id = owner_id;
    options.timeout_ms = timeout_ms;
    options.flags = reentrant ? ADVLOCK_LOCK_REENTRANT : 0u;
    options.cancel = cancel;
    advlock_lock *lock = nullptr;
    const advlock_status status =
        advlock_session_acquire(&lock, session.get(), name ? of_name(*name) : of_key(key), mode, &options);
    out->reset(lock);
    return status;
}

// advlock_session_acquire of the key with the options as given (slots, fencing...).
inline advlock_status acquire_with(Lock *out, const Session &session, const advlock_key &key,
                                   const advlock_lock_options &options, advlock_mode mode = ADVLOCK_EXCLUSIVE) {
    advlock_lock *lock = nullptr;
    const advlock_status status = advlock_session_acquire(&lock, session.get(), of_key(key), mode, &options);
    out->reset(lock);
    return status;
}

inline std::vector<advlock_target> targets_of(const std::vector<advlock_key> &keys) {
    std::vector<advlock_target> targets;
    for (const advlock_key &key : keys) targets.push_back(advlock_target_of_key(key));
    return targets;
}

// advlock_session_acquire_all; the handles go to *out (all null unless OK).
inline advlock_status acquire_all(std::vector<Lock> *out, const Session &session,
                                  const std::vector<advlock_target> &targets, int64_t timeout_ms = 0,
                                  advlock_mode mode = ADVLOCK_EXCLUSIVE, unsigned flags = 0,
                                  advlock_cancel_token *cancel = nullptr) {
    advlock_lock_options options;
    advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION);
    options.timeout_ms = timeout_ms;
    options.flags = flags;
    options.cancel = cancel;
    std::vector<advlock_lock *> handles(targets.size(), reinterpret_cast<advlock_lock *>(0x1));
    const advlock_status status =
        advlock_session_acquire_all(handles.data(), session.get(), targets.data(), targets.size(), mode, &options);
    out->clear();
    for (advlock_lock *handle : handles) {
        EXPECT_EQ(handle == nullptr, status != ADVLOCK_OK);
        out->emplace_back(handle);
    }
    return status;
}

// A key no other test uses: the advlock key of "<suite>.<test><suffix>".
inline advlock_key test_key(const std::string &suffix = "") {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string name = std::string(info->test_suite_name()) + "." + info->name() + suffix;
    advlock_key key;
    advlock_key_from_name(&key, name.c_str(), ADVLOCK_NUL_TERMINATED);
    return key;
}

inline int64_t backend_pid(const Session &session) {
    int64_t pid = 0;
    EXPECT_EQ(advlock_session_server_id(&pid, session.get()), ADVLOCK_OK) << advlock_error_last()->message;
    return pid;
}

// pg_locks rows of advisory locks a job took: advlock's own per-session
// sentinel, pair category 0x61646c6b, left out.
constexpr const char *kJobAdvisoryLocks =
    "pg_locks WHERE locktype = 'advisory' AND NOT (objsubid = 2 AND classid = 1633971307)";

// Advisory locks the server shows for a backend: "granted" rows and "waiting" rows.
inline std::string advisory_locks_of(Psql &psql, int64_t pid) {
    return psql.value(std::string("SELECT coalesce(string_agg(CASE WHEN granted THEN 'granted' ELSE 'waiting' END, ',' "
                                  "ORDER BY granted DESC), '') FROM ") +
                          kJobAdvisoryLocks + " AND pid = $1::int",
                      {std::to_string(pid)});
}

// Block until the backend waits for an advisory lock. No deadline: a slow
// machine makes the test slower, never wrong.
inline void wait_until_waiting(Psql &psql, int64_t pid) {
    while (psql.value(std::string("SELECT count(*) FROM ") + kJobAdvisoryLocks + " AND NOT granted AND pid = $1::int",
                      {std::to_string(pid)}) == "0") {
    }
}

}  // namespace advlock::test
