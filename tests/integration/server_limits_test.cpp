// Errors a server raises, each with its own status: the lock table filling up
// (reached for real, on a small server), and a role without the right to call
// the advisory-lock functions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

TEST(ServerLimits, FullLockTableIsEcapacityWithAHint) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh", "-c max_locks_per_transaction=10 -c max_connections=10");
    Session session = open_session(nullptr, server.url());
    std::vector<Lock> locks;
    advlock_status status = ADVLOCK_OK;
    // The shared lock table holds about max_locks_per_transaction * max_connections
    // locks, plus what spare shared memory allows. The bound only stops a runaway loop.
    for (int64_t i = 0; i < 1000000 && status == ADVLOCK_OK; ++i) {
        const advlock_key key = advlock_key_bigint(i);
        advlock_lock *lock = nullptr;
        status = advlock_session_try_lock(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE);
        if (lock) locks.emplace_back(lock);
    }
    ASSERT_EQ(status, ADVLOCK_ECAPACITY) << advlock_status_name(status) << ": " << advlock_error_last()->message;
    EXPECT_STREQ(advlock_error_last()->sqlstate, "53200");
    EXPECT_NE(std::string(advlock_error_last()->message).find("max_locks_per_transaction"), std::string::npos);
    std::cout << "[ capacity ] the server refused lock " << locks.size() + 1 << "\n";
    // Every lock taken before is still ours and releases cleanly.
    for (Lock &lock : locks) ASSERT_EQ(advlock_lock_release(lock.get()), ADVLOCK_OK);
}

TEST(ServerLimits, RoleWithoutExecuteIsEpermission) {
    ScriptedServer server("pg-start.sh", "pg-stop.sh");
    Psql admin(server.url());
    admin.query("CREATE ROLE locker LOGIN PASSWORD 'locker-pw'");
    admin.query("REVOKE EXECUTE ON FUNCTION pg_try_advisory_lock(bigint) FROM PUBLIC");
    const std::string url = with_credentials(server.url(), "locker", "locker-pw");
    Session session = open_session(nullptr, url);
    const advlock_key key = advlock_key_bigint(1);
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_try_lock(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE), ADVLOCK_EPERMISSION);
    EXPECT_STREQ(advlock_error_last()->sqlstate, "42501");
    EXPECT_NE(std::string(advlock_error_last()->message).find("grant EXECUTE"), std::string::npos);
    // The pair-key function is still granted: the session keeps working.
    const advlock_key pair = advlock_key_pair(1, 1);
    EXPECT_EQ(advlock_session_try_lock(&lock, session.get(), of_key(pair), ADVLOCK_EXCLUSIVE), ADVLOCK_OK);
    advlock_lock_free(lock);
}
