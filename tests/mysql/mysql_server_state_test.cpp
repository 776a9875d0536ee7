// MySQL sessions against MariaDB servers of the tests' own, for what changes a
// whole server: read-only and Galera targets refused unless allowed, a frozen
// server (the heartbeat's deadline), holders without metadata_lock_info.
#include <gtest/gtest.h>

#include <csignal>
#include <set>
#include <string>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/lost_recorder.hpp"
#include "support/test_mariadb.hpp"

namespace advlock::test {
namespace {

advlock_status open_status(const std::string &url, bool allow_standby, advlock_session **out) {
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    if (allow_standby) options.flags |= ADVLOCK_SESSION_ALLOW_STANDBY;
    return advlock_session_open(out, url.c_str(), &options);
}

TEST(MysqlTargets, AReadOnlyServerIsRefusedUnlessAllowed) {
    PrivateMariadb server;
    Admin(server.state()).run("SET GLOBAL read_only = 1");
    advlock_session *session = nullptr;
    EXPECT_EQ(open_status(server.url(), false, &session), ADVLOCK_EREADONLY);
    EXPECT_TRUE(advlock_status_is_unsafe_target(ADVLOCK_EREADONLY));
    EXPECT_NE(std::string(advlock_error_last()->message).find("read-only"), std::string::npos);
    EXPECT_EQ(open_status(server.url(), true, &session), ADVLOCK_OK) << advlock_error_last()->message;
    advlock_session_free(session);
}

TEST(MysqlTargets, AServerWideStatementTimeLimitDoesNotCutAWait) {
    PrivateMariadb server;
    Admin(server.state()).run("SET GLOBAL max_statement_time = 0.2");
    Session holder = open_session(nullptr, server.url());
    Session waiter = open_session(nullptr, server.url());
    const advlock_key key = advlock_key_pair(7, 8);
    Lock held = take(holder, key);
    ASSERT_TRUE(held);
    advlock_lock *lock = nullptr;
    // 0.2 s would interrupt the GET_LOCK wait with an error; the wait is the caller's 1.5 s.
    EXPECT_EQ(advlock_session_lock(&lock, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, 1500), ADVLOCK_NOT_ACQUIRED)
        << advlock_error_last()->message;
    advlock_lock_free(lock);
}

TEST(MysqlTargets, AGaleraNodeIsRefusedUnlessTheUrlAllowsIt) {
    PrivateMariadb server("--wsrep-on=ON --wsrep-provider=none");
    advlock_session *session = nullptr;
    EXPECT_EQ(open_status(server.url(), true, &session), ADVLOCK_ECLUSTER);
    EXPECT_TRUE(advlock_status_is_unsafe_target(ADVLOCK_ECLUSTER));
    EXPECT_NE(std::string(advlock_error_last()->message).find("Galera"), std::string::npos);
    EXPECT_EQ(open_status(server.url() + "?allow_cluster=true", false, &session), ADVLOCK_OK)
        << advlock_error_last()->message;
    advlock_session_free(session);
}

TEST(MysqlTargets, AFrozenServerIsALossWithinTheHeartbeatDeadline) {
    PrivateMariadb server;
    LostRecorder lost;
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.heartbeat_interval_ms = 200;
    options.heartbeat_deadline_ms = 500;
    options.on_lost = &LostRecorder::callback;
    options.on_lost_payload = &lost;
    advlock_session *raw = nullptr;
    ASSERT_EQ(advlock_session_open(&raw, server.url().c_str(), &options), ADVLOCK_OK) << advlock_error_last()->message;
    Session session(raw);
    Lock held = take(session, advlock_key_pair(7, 7));
    ASSERT_TRUE(held);
    ::kill(server.server_pid(), SIGSTOP);
    const std::string why = lost.wait();
    ::kill(server.server_pid(), SIGCONT);
    EXPECT_NE(why.find("no answer to the heartbeat within 500 ms"), std::string::npos) << why;
    EXPECT_EQ(advlock_lock_release(held.get()), ADVLOCK_ELOST);
}

TEST(MysqlTargets, WithoutMetadataLockInfoHoldersComeFromTheRegistryAndSaySo) {
    PrivateMariadb server;
    advlock_session *a = nullptr, *b = nullptr;
    ASSERT_EQ(open_status(server.url(), false, &a), ADVLOCK_OK);
    ASSERT_EQ(open_status(server.url(), false, &b), ADVLOCK_OK);
    Session holder(a), asker(b);
    advlock_registry *registry = nullptr;
    const std::string text = "[locks.nightly]\n\n[locks.billing]\nkey = [100, 2]\n";
    ASSERT_EQ(advlock_registry_parse(&registry, text.data(), text.size(), "test"), ADVLOCK_OK);
    std::unique_ptr<advlock_registry, decltype(&advlock_registry_free)> names(registry, &advlock_registry_free);
    advlock_lock *l1 = nullptr, *l2 = nullptr;
    ASSERT_EQ(advlock_session_try_lock(&l1, holder.get(), of_name("nightly"), ADVLOCK_EXCLUSIVE),
              ADVLOCK_OK);
    const advlock_key billing = advlock_key_pair(100, 2);
    ASSERT_EQ(advlock_session_try_lock(&l2, holder.get(), of_key(billing), ADVLOCK_EXCLUSIVE), ADVLOCK_OK);
    Lock nightly_lock(l1), billing_lock(l2);

    advlock_holders *raw = nullptr;
    ASSERT_EQ(advlock_session_holders(&raw, asker.get(), registry, nullptr), ADVLOCK_OK) << advlock_error_last()->message;
    Holders holders(raw);
    ASSERT_EQ(advlock_holders_count(raw), 2u);
    std::set<std::string> seen;
    for (size_t i = 0; i < advlock_holders_count(raw); ++i) {
        seen.insert(advlock_holders_at(raw, i)->lock_name);
        EXPECT_EQ(advlock_holders_at(raw, i)->server_id, backend_pid(holder));
    }
    EXPECT_EQ(seen, (std::set<std::string>{"nightly", "billing"}));
    ASSERT_NE(advlock_holders_note(raw), nullptr);
    EXPECT_NE(std::string(advlock_holders_note(raw)).find("metadata_lock_info"), std::string::npos);
}

}  // namespace
}  // namespace advlock::test
