// The MySQL / MariaDB backend through the C ABI, against the throwaway MariaDB
// of the `mariadb` fixture (started with the metadata_lock_info plugin): names
// used natively, keys rendered as names, scope, the 64-character limit, case,
// waits, cancel, deadlock, re-entrancy, loss by KILL CONNECTION, holders.
#include <gtest/gtest.h>

#include <atomic>
#include <cctype>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "advlock.h"
#include "advlock.hpp"
#include "support/c_handles.hpp"
#include "support/lost_recorder.hpp"
#include "support/overlap.hpp"
#include "support/test_mariadb.hpp"

namespace advlock::test {
namespace {

// A lock name no other test (or process) uses.
std::string unique_name(const std::string &suffix = "") {
    const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::string(info->name()).substr(0, 40) + "_" + std::to_string(::getpid()) + suffix;
}

Session mysql_session(const std::string &query = "", LostRecorder *lost = nullptr) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    if (lost) {
        options.on_lost = &LostRecorder::callback;
        options.on_lost_payload = lost;
    }
    advlock_session *session = nullptr;
    const std::string url = mariadb_url(query);
    EXPECT_EQ(advlock_session_open(&session, url.c_str(), &options), ADVLOCK_OK) << advlock_error_last()->message;
    return Session(session);
}

Lock take_name(const Session &session, const std::string &name, advlock_status expected = ADVLOCK_OK) {
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, session.get(), of_name(name), ADVLOCK_EXCLUSIVE),
              expected)
        << advlock_error_last()->message;
    return Lock(lock);
}

std::string id_of(const Session &session) { return std::to_string(backend_pid(session)); }

TEST(MysqlLocks, ANameIsLockedUnderThatNameAndExcludesOtherSessions) {
    Admin admin;
    const std::string name = unique_name();
    Session a = mysql_session(), b = mysql_session();
    Lock held = take_name(a, name);
    ASSERT_TRUE(held);
    EXPECT_EQ(admin.holder_of(name), id_of(a));
    EXPECT_FALSE(take_name(b, name, ADVLOCK_NOT_ACQUIRED));
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(admin.holder_of(name), "free");
    EXPECT_TRUE(take_name(b, name));
}

// Sets, all or nothing: MySQL takes them one GET_LOCK at a time, in name
// order, and gives back what it took when one is held elsewhere.
TEST(MysqlLocks, ASetIsTakenWholeOrNotAtAll) {
    Admin admin;
    const std::vector<std::string> names = {unique_name("_1"), unique_name("_2"), unique_name("_3")};
    std::vector<advlock_target> targets;
    for (const std::string &n : names) targets.push_back(*of_name(n));
    Session a = mysql_session(), b = mysql_session();
    Lock middle = take_name(b, names[1]);
    ASSERT_TRUE(middle);
    advlock_lock *locks[3] = {};
    advlock_lock_options options;
    advlock_lock_options_init(&options, ADVLOCK_LOCK_OPTIONS_VERSION);
    EXPECT_EQ(advlock_session_acquire_all(locks, a.get(), targets.data(), 3, ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(admin.holder_of(names[0]), "free");
    options.timeout_ms = 200;  // a wait that runs out: names[0] was granted before it, and is given back
    EXPECT_EQ(advlock_session_acquire_all(locks, a.get(), targets.data(), 3, ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(admin.holder_of(names[0]), "free");
    EXPECT_EQ(locks[0], nullptr);
    ASSERT_EQ(advlock_lock_release(middle.get()), ADVLOCK_OK);
    ASSERT_EQ(advlock_session_acquire_all(locks, a.get(), targets.data(), 3, ADVLOCK_EXCLUSIVE, &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    for (const std::string &n : names) EXPECT_EQ(admin.holder_of(n), id_of(a));
    EXPECT_EQ(advlock_lock_release_all(locks, 3), ADVLOCK_OK) << advlock_error_last()->message;
    for (const std::string &n : names) EXPECT_EQ(admin.holder_of(n), "free");
    for (advlock_lock *lock : locks) advlock_lock_free(lock);
}

TEST(MysqlLocks, AProgramUsingGetLockDirectlyExcludesAdvlockAndTheReverse) {
    Admin admin;
    const std::string name = unique_name();
    ASSERT_EQ(admin.value("SELECT GET_LOCK('" + name + "', 0)"), "1");
    Session session = mysql_session();
    EXPECT_FALSE(take_name(session, name, ADVLOCK_NOT_ACQUIRED));
    admin.run("DO RELEASE_LOCK('" + name + "')");
    Lock held = take_name(session, name);
    ASSERT_TRUE(held);
    EXPECT_EQ(admin.value("SELECT GET_LOCK('" + name + "', 0)"), "0");
}

TEST(MysqlLocks, KeysBecomeAdvlockNamesAndScopePrefixesEveryName) {
    Admin admin;
    Session plain = mysql_session();
    const std::string scope = "s" + std::to_string(::getpid());
    Session scoped = mysql_session("?scope=" + scope);
    const advlock_key pair = advlock_key_pair(100, ::getpid());
    const advlock_key bigint = advlock_key_bigint(-42 - ::getpid());
    Lock a = take(plain, pair), b = take(plain, bigint);
    ASSERT_TRUE(a && b);
    EXPECT_EQ(admin.holder_of("advlock:100:" + std::to_string(::getpid())), id_of(plain));
    EXPECT_EQ(admin.holder_of("advlock:" + std::to_string(-42 - ::getpid())), id_of(plain));

    // In a scope the same key is another lock: scope:advlock:100:N.
    Lock c = take(scoped, pair);
    ASSERT_TRUE(c);
    EXPECT_EQ(admin.holder_of(scope + ":advlock:100:" + std::to_string(::getpid())), id_of(scoped));
    const std::string name = unique_name();
    Lock d = take_name(scoped, name);
    ASSERT_TRUE(d);
    EXPECT_EQ(admin.holder_of(scope + ":" + name), id_of(scoped));
}

TEST(MysqlLocks, NamesHoldSixtyFourCharactersAndLongerOnesAreAClearError) {
    Admin admin;
    Session session = mysql_session();
    // 64 characters of two-byte UTF-8: MySQL counts characters, not bytes.
    std::string name64;
    for (int i = 0; i < 64; ++i) name64 += "\xc3\xa9";
    Lock held = take_name(session, name64);
    ASSERT_TRUE(held);
    EXPECT_EQ(admin.holder_of(name64), id_of(session));

    const std::string name65 = name64 + "x";
    take_name(session, name65, ADVLOCK_EKEY);
    const std::string message = advlock_error_last()->message;
    EXPECT_NE(message.find("65 characters"), std::string::npos) << message;
    EXPECT_NE(message.find("at most 64"), std::string::npos) << message;

    // The scope counts: 60 characters + "abcd:" is 65.
    Session scoped = mysql_session("?scope=abcd");
    take_name(scoped, std::string(60, 'n'), ADVLOCK_EKEY);
    EXPECT_NE(std::string(advlock_error_last()->message).find("scope"), std::string::npos);
    EXPECT_TRUE(take_name(scoped, std::string(59, 'n')));

    // A name that would read as a key is refused rather than shared with it.
    take_name(session, "advlock:100:1", ADVLOCK_EKEY);
}

TEST(MysqlLocks, MariadbComparesNamesCaseSensitively) {
    // Documented in advlock.h: MariaDB 10.11 tells 'Job' from 'job' (MySQL does not).
    Session a = mysql_session(), b = mysql_session();
    const std::string name = unique_name();
    std::string upper = name;
    upper[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[0])));
    std::string lower = name;
    lower[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(lower[0])));
    ASSERT_NE(upper, lower);
    Lock one = take_name(a, upper);
    ASSERT_TRUE(one);
    EXPECT_TRUE(take_name(b, lower));
}

TEST(MysqlLocks, ReentryIsCountedAndEachHandleReleasesOnce) {
    Admin admin;
    const std::string name = unique_name();
    Session a = mysql_session(), b = mysql_session();
    Lock first, second;
    const advlock_key unused = advlock_key_bigint(0);
    ASSERT_EQ(acquire(&first, a, unused, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true, nullptr, &name), ADVLOCK_OK);
    ASSERT_EQ(acquire(&second, a, unused, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true, nullptr, &name), ADVLOCK_OK);
    EXPECT_FALSE(take_name(a, name, ADVLOCK_NOT_ACQUIRED)) << "a non-reentrant handle is another owner";
    const std::string upper = [&] {
        std::string u = name;
        for (char &c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return u;
    }();
    EXPECT_FALSE(take_name(a, upper, ADVLOCK_NOT_ACQUIRED)) << "MySQL ignores case in lock names: so do owners";
    ASSERT_EQ(advlock_lock_release(first.get()), ADVLOCK_OK);
    EXPECT_EQ(admin.holder_of(name), id_of(a));  // still held once
    EXPECT_FALSE(take_name(b, name, ADVLOCK_NOT_ACQUIRED));
    EXPECT_EQ(advlock_lock_release(first.get()), ADVLOCK_EMISUSE);
    ASSERT_EQ(advlock_lock_release(second.get()), ADVLOCK_OK);
    EXPECT_EQ(admin.holder_of(name), "free");
}

TEST(MysqlLocks, TimedWaitsRunOutWithFractionalTimeoutsAndHandOffWhenReleased) {
    const std::string name = unique_name();
    Session holder = mysql_session(), waiter = mysql_session();
    Lock held = take_name(holder, name);
    ASSERT_TRUE(held);
    advlock_lock *got = nullptr;
    EXPECT_EQ(advlock_session_lock(&got, waiter.get(), of_name(name), ADVLOCK_EXCLUSIVE, 250),
              ADVLOCK_NOT_ACQUIRED);
    EXPECT_EQ(got, nullptr);

    std::thread releaser([&] {
        Admin admin;
        while (admin.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id_of(waiter) +
                           " AND INFO LIKE 'SELECT GET_LOCK%'") == "0") {
        }
        advlock_lock_release(held.get());
    });
    const advlock_status status =
        advlock_session_lock(&got, waiter.get(), of_name(name), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER);
    releaser.join();
    EXPECT_EQ(status, ADVLOCK_OK) << advlock_error_last()->message;
    Lock taken(got);
    EXPECT_EQ(Admin().holder_of(name), id_of(waiter));
}

TEST(MysqlLocks, CancelEndsAWaitAndLeavesTheSessionUsable) {
    Admin admin;
    const std::string name = unique_name();
    Session holder = mysql_session(), waiter = mysql_session();
    Lock held = take_name(holder, name);
    for (int round = 0; round < 5; ++round) {
        std::thread canceller([&] {
            while (admin.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id_of(waiter) +
                               " AND INFO LIKE 'SELECT GET_LOCK%'") == "0") {
            }
            advlock_session_cancel(waiter.get());
        });
        advlock_lock *got = nullptr;
        EXPECT_EQ(advlock_session_lock(&got, waiter.get(), of_name(name), ADVLOCK_EXCLUSIVE,
                                            ADVLOCK_WAIT_FOREVER),
                  ADVLOCK_ECANCELED);
        canceller.join();
        EXPECT_EQ(got, nullptr);
        // The next statements run: the KILL QUERY hit the wait, nothing after it.
        const std::string other = name + "_" + std::to_string(round);
        Lock next = take_name(waiter, other);
        ASSERT_TRUE(next);
        EXPECT_EQ(advlock_lock_release(next.get()), ADVLOCK_OK) << advlock_error_last()->message;
        EXPECT_EQ(advlock_session_verify(waiter.get()), ADVLOCK_OK);
    }
}

TEST(MysqlLocks, ADeadlockBetweenTwoSessionsIsReportedAsSuch) {
    const std::string first = unique_name("_a"), second = unique_name("_b");
    Session a = mysql_session(), b = mysql_session();
    Lock a1 = take_name(a, first), b1 = take_name(b, second);
    ASSERT_TRUE(a1 && b1);
    std::atomic<advlock_status> a_status{ADVLOCK_OK};
    advlock_lock *a2 = nullptr;
    std::thread a_waits([&] {
        a_status = advlock_session_lock(&a2, a.get(), of_name(second), ADVLOCK_EXCLUSIVE, 20000);
        if (a_status != ADVLOCK_OK) a1.reset();  // let b through if a lost the deadlock
    });
    Admin admin;
    while (admin.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id_of(a) +
                       " AND INFO LIKE 'SELECT GET_LOCK%'") == "0") {
    }
    advlock_lock *b2 = nullptr;
    const advlock_status b_status =
        advlock_session_lock(&b2, b.get(), of_name(first), ADVLOCK_EXCLUSIVE, 20000);
    if (b_status != ADVLOCK_OK) b1.reset();
    a_waits.join();
    Lock a_got(a2), b_got(b2);
    // Exactly one of them is told of the deadlock; the other gets its lock.
    EXPECT_TRUE((a_status == ADVLOCK_EDEADLOCK) != (b_status == ADVLOCK_EDEADLOCK))
        << advlock_status_name(a_status) << " / " << advlock_status_name(b_status);
    EXPECT_TRUE(a_status == ADVLOCK_OK || b_status == ADVLOCK_OK);
}

TEST(MysqlLocks, KillConnectionIsNoticedAsALoss) {
    LostRecorder lost;
    Session session = mysql_session("", &lost);
    const std::string name = unique_name();
    Lock held = take_name(session, name);
    ASSERT_TRUE(held);
    const std::string id = id_of(session);
    Admin().run("KILL CONNECTION " + id);
    const std::string why = lost.wait();  // the watchdog, with no call from us
    EXPECT_NE(why.find("closed the connection"), std::string::npos) << why;
    EXPECT_EQ(lost.count(), 1);
    EXPECT_EQ(advlock_session_check(session.get()), ADVLOCK_ELOST);
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
    Admin admin;
    admin.wait_until_gone(id);  // the client can see the socket close before the server frees the lock
    EXPECT_EQ(admin.holder_of(name), "free");
}

TEST(MysqlLocks, StrictVerifyAsksTheServerWhoHoldsTheLock) {
    const std::string name = unique_name();
    Session session = mysql_session();
    Lock held = take_name(session, name);
    ASSERT_TRUE(held);
    EXPECT_EQ(advlock_lock_verify(held.get(), ADVLOCK_VERIFY_STRICT), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(advlock_lock_verify(held.get(), 0u), ADVLOCK_OK) << advlock_error_last()->message;
}

TEST(MysqlLocks, HoldersNameTheLockAndItsSessionAndSayWhatIsNotShown) {
    const std::string name = unique_name();
    Session holder = mysql_session(), asker = mysql_session();
    Lock held = take_name(holder, name);
    ASSERT_TRUE(held);
    advlock_holders *raw = nullptr;
    ASSERT_EQ(advlock_session_holders(&raw, asker.get(), nullptr, of_name(name)), ADVLOCK_OK)
        << advlock_error_last()->message;
    Holders holders(raw);
    ASSERT_EQ(advlock_holders_count(raw), 1u);
    const advlock_holder *row = advlock_holders_at(raw, 0);
    EXPECT_EQ(std::string(row->lock_name), name);
    EXPECT_EQ(row->server_id, backend_pid(holder));
    EXPECT_TRUE(((row->flags & ADVLOCK_HOLDER_GRANTED) != 0));
    EXPECT_FALSE(((row->flags & ADVLOCK_HOLDER_SELF) != 0));
    EXPECT_EQ(std::string(row->user ? row->user : ""), "advlock");
    advlock_key expected;
    advlock_key_from_name(&expected, name.c_str(), ADVLOCK_NUL_TERMINATED);
    EXPECT_TRUE(advlock_key_equal(&row->target.key, &expected));
    ASSERT_NE(advlock_holders_note(raw), nullptr);
    EXPECT_NE(std::string(advlock_holders_note(raw)).find("waiting"), std::string::npos);
}

TEST(MysqlLocks, HoldersShowASessionOnceWhateverItsHandles) {
    const std::string name = unique_name();
    Session holder = mysql_session(), asker = mysql_session();
    const advlock_key unused = advlock_key_bigint(0);
    Lock first, second;
    ASSERT_EQ(acquire(&first, holder, unused, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true, nullptr, &name), ADVLOCK_OK);
    ASSERT_EQ(acquire(&second, holder, unused, ADVLOCK_EXCLUSIVE, 0, /*reentrant=*/true, nullptr, &name), ADVLOCK_OK);
    for (const Session *who : {&holder, &asker}) {
        advlock_holders *raw = nullptr;
        ASSERT_EQ(advlock_session_holders(&raw, who->get(), nullptr, of_name(name)), ADVLOCK_OK)
            << advlock_error_last()->message;
        Holders holders(raw);
        EXPECT_EQ(advlock_holders_count(raw), 1u) << (who == &holder ? "asked by the holder" : "asked by another");
    }
}

TEST(MysqlLocks, AHoldersKeyLocksTheSameLockAgain) {
    // Through the C++ wrapper: a holder's key keeps the lock's name, so
    // locking it (here from a second session) names the lock that is held.
    const std::string name = unique_name();
    advlock::session holder = advlock::session::open(mariadb_url()), other = advlock::session::open(mariadb_url());
    std::optional<advlock::lock> held = holder.try_lock(advlock::key::from_name(name));
    ASSERT_TRUE(held);
    std::string note;
    const advlock::key only = advlock::key::from_name(name);
    const std::vector<advlock::holder> rows = other.holders(nullptr, &only, &note);
    ASSERT_EQ(rows.size(), 1u);
    ASSERT_TRUE(rows[0].key.name());
    EXPECT_EQ(*rows[0].key.name(), name);
    EXPECT_FALSE(other.try_lock(rows[0].key));
    EXPECT_FALSE(note.empty());
    held->release();
    EXPECT_TRUE(other.try_lock(rows[0].key));
}

TEST(MysqlLocks, WhatMysqlCannotDoIsUnsupportedNotSilentlyDifferent) {
    Session session = mysql_session();
    const std::string name = unique_name();
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, session.get(), of_name(name), ADVLOCK_SHARED),
              ADVLOCK_EUNSUPPORTED);
    EXPECT_NE(std::string(advlock_error_last()->message).find("no shared mode"), std::string::npos);
    int64_t when = 0;
    EXPECT_EQ(advlock_session_ledger_completed(&when, session.get(), "job", "day"), ADVLOCK_EUNSUPPORTED);
}

TEST(MysqlLocks, BadUrlsAndPasswordsGiveClearErrorsWithoutTheSecret) {
    advlock_session *session = nullptr;
    std::string url = mariadb_url();
    const std::string password = read_first_line(mariadb_state_dir() + "/password", "password");
    std::string wrong = url;
    wrong.replace(wrong.find(password), password.size(), "Wr0ngSecretPw");
    EXPECT_EQ(advlock_session_open(&session, wrong.c_str(), nullptr), ADVLOCK_ECONNECT);
    EXPECT_EQ(std::string(advlock_error_last()->message).find("Wr0ngSecretPw"), std::string::npos)
        << advlock_error_last()->message;
    EXPECT_EQ(advlock_session_open(&session, (url + "?colour=blue").c_str(), nullptr), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("colour"), std::string::npos);
    EXPECT_EQ(std::string(advlock_error_last()->message).find(password), std::string::npos);
    EXPECT_EQ(advlock_session_open(&session, "mysql://u:Pw5ecret@127.0.0.1:99999/db", nullptr), ADVLOCK_EINVAL);
    EXPECT_NE(std::string(advlock_error_last()->message).find("port"), std::string::npos);
    EXPECT_EQ(std::string(advlock_error_last()->message).find("Pw5ecret"), std::string::npos);
    EXPECT_EQ(session, nullptr);
}

TEST(MysqlLocks, ThreadsSharingSessionsNeverOverlap) {
    // GET_LOCK counts a session's re-entry like PostgreSQL: the owners table
    // keeps threads of one session apart on MySQL as well.
    for (const bool by_trying : {false, true}) {
        SCOPED_TRACE(by_trying ? "trying" : "waiting");
        const std::string name = unique_name();
        std::vector<Session> sessions;
        for (int s = 0; s < 2; ++s) sessions.push_back(mysql_session());
        Overlap overlap;
        std::vector<std::thread> threads;
        for (int t = 0; t < 8; ++t) {
            threads.emplace_back([&, t] {
                work(sessions[t % 2], advlock_key_bigint(0), ADVLOCK_EXCLUSIVE, by_trying, 10, overlap, &name);
            });
        }
        for (std::thread &t : threads) t.join();
        EXPECT_EQ(overlap.violations.load(), 0);
        EXPECT_EQ(overlap.entries.load(), 80);
    }
}

// Job slots are key-only locks ("advlock:<slot key>") on MySQL too, so the
// same N-at-most holds across backends; fencing has no table here.
TEST(MysqlLocks, SlotsAreKeyLocksOfTheirOwnAndFencingIsUnsupported) {
    Admin admin;
    const std::string name = unique_name();
    Session a = mysql_session(), b = mysql_session(), c = mysql_session();
    advlock_lock_options options = ADVLOCK_LOCK_OPTIONS_INIT;
    options.slots = 2;
    advlock_lock *first = nullptr, *second = nullptr, *third = nullptr;
    ASSERT_EQ(advlock_session_acquire(&first, a.get(), of_name(name), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    Lock held_a(first);
    ASSERT_EQ(advlock_session_acquire(&second, b.get(), of_name(name), ADVLOCK_EXCLUSIVE, &options), ADVLOCK_OK)
        << advlock_error_last()->message;
    Lock held_b(second);
    EXPECT_EQ(advlock_session_acquire(&third, c.get(), of_name(name), ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_NOT_ACQUIRED);
    advlock_key slot_key{};
    ASSERT_EQ(advlock_lock_key(&slot_key, held_a.get()), ADVLOCK_OK);
    char text[ADVLOCK_KEY_TEXT_SIZE];
    advlock_key_format(text, sizeof text, &slot_key);
    EXPECT_EQ(admin.holder_of(std::string("advlock:") + text), id_of(a));
    EXPECT_EQ(admin.holder_of(name), "free");  // the name itself stays free

    options.slots = 0;
    options.flags = ADVLOCK_LOCK_FENCED;
    EXPECT_EQ(advlock_session_acquire(&third, c.get(), of_name(name), ADVLOCK_EXCLUSIVE, &options),
              ADVLOCK_EUNSUPPORTED);
    EXPECT_EQ(third, nullptr);
    EXPECT_EQ(admin.holder_of(name), "free");
}

}  // namespace
}  // namespace advlock::test
