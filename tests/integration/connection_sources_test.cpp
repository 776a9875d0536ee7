// A session finds its server the way libpq does: a URL, a conninfo string,
// the PG* environment, a service file and a password file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <thread>

#include "advlock.h"
#include "support/c_handles.hpp"

using namespace advlock::test;

namespace {

std::string state(const std::string &file) {
    std::ifstream in(postgres_state_dir() + "/" + file);
    std::string value;
    in >> value;
    return value;
}

advlock_status open_url(const std::string &url) {
    advlock_session *session = nullptr;
    const advlock_status status = advlock_session_open(&session, url.c_str(), nullptr);
    advlock_session_free(session);
    return status;
}

}  // namespace

TEST(ConnectionSources, ConninfoString) {
    const std::string conninfo = "host=127.0.0.1 port=" + state("port") + " user=postgres dbname=postgres password=" +
                                 state("password");
    EXPECT_EQ(open_url(conninfo), ADVLOCK_OK) << advlock_error_last()->message;
}

TEST(ConnectionSources, EmptyUrlUsesThePgEnvironment) {
    setenv("PGHOST", "127.0.0.1", 1);
    setenv("PGPORT", state("port").c_str(), 1);
    setenv("PGUSER", "postgres", 1);
    setenv("PGDATABASE", "postgres", 1);
    setenv("PGPASSWORD", state("password").c_str(), 1);
    EXPECT_EQ(open_url(""), ADVLOCK_OK) << advlock_error_last()->message;
    unsetenv("PGPASSWORD");
    setenv("PGPASSFILE", "/nonexistent/pgpass", 1);
    EXPECT_EQ(open_url(""), ADVLOCK_ECONNECT);
}

TEST(ConnectionSources, ServiceFileAndPasswordFile) {
    const std::string dir = ::testing::TempDir();
    const std::string services = dir + "advlock_pg_service.conf", passwords = dir + "advlock_pgpass";
    {
        std::ofstream out(services);
        out << "[advlock_test]\nhost=127.0.0.1\nport=" << state("port") << "\nuser=postgres\ndbname=postgres\n";
    }
    {
        std::ofstream out(passwords);
        out << "127.0.0.1:" << state("port") << ":*:postgres:" << state("password") << "\n";
    }
    chmod(passwords.c_str(), 0600);
    setenv("PGSERVICEFILE", services.c_str(), 1);
    setenv("PGPASSFILE", passwords.c_str(), 1);
    unsetenv("PGPASSWORD");
    EXPECT_EQ(open_url("service=advlock_test"), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(open_url("postgresql:///postgres?service=advlock_test"), ADVLOCK_OK) << advlock_error_last()->message;
}

TEST(ConnectionSources, SessionClosesCleanlyAfterACancelledWait) {
    const advlock_key key = test_key();
    Session holder = open_session();
    Lock held = take(holder, key);
    advlock_session *waiter = nullptr;
    ASSERT_EQ(advlock_session_open(&waiter, postgres_url().c_str(), nullptr), ADVLOCK_OK);
    int64_t pid = 0;
    advlock_session_server_id(&pid, waiter);
    // The waiting thread keeps the C handle; the main thread only cancels, then
    // closes once the wait has ended.
    advlock_status status = ADVLOCK_OK;
    std::thread waiting([&] {
        advlock_lock *lock = nullptr;
        status = advlock_session_lock(&lock, waiter, of_key(key), ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER);
        advlock_lock_free(lock);
    });
    Psql psql;
    wait_until_waiting(psql, pid);
    advlock_session_cancel(waiter);
    waiting.join();
    EXPECT_EQ(status, ADVLOCK_ECANCELED);
    advlock_session_free(waiter);
}
