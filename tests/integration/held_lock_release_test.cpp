// A lock handle freed without release() (a garbage collector's finalizer,
// holding its VM lock) must return at once even while another thread of the
// session waits on the server, which holds the session's connection; the
// server's release follows once the connection is free. On the core's classes:
// PostgreSQL (the fixture) and the local flock backend.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "error.hpp"
#include "local/local_session.hpp"
#include "postgres/pg_session.hpp"
#include "session/held_lock.hpp"
#include "support/pg_lock_rows.hpp"
#include "support/temp_directory.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::core;
using advlock::test::until_pg_lock_row;

namespace {

Key test_key(int n) { return Key::bigint(0x5E55C10AE0000LL + ::getpid() * 64LL + n); }

template <typename T>
bool ended(std::future<T> &future) {
    return future.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
}

std::unique_ptr<HeldLock> held(const std::shared_ptr<LockSession> &session, const Key &key) {
    auto lock = std::make_unique<HeldLock>(session, key, LockMode::Exclusive);
    EXPECT_TRUE(lock->acquire(AcquireOptions{}));
    return lock;
}

}  // namespace

TEST(HeldLockDestructor, NeverWaitsForAServerWaitOnAnotherThreadAndTheReleaseFollows) {
    const Key a = test_key(1), b = test_key(2);
    auto other = PgSession::open(advlock::test::postgres_url(), {});
    ASSERT_TRUE(other->try_lock(b, LockMode::Exclusive));
    auto session = PgSession::open(advlock::test::postgres_url(), {});
    const std::int64_t pid = session->server_session_id();
    std::unique_ptr<HeldLock> unreleased = held(session, a);

    auto waited = std::async(std::launch::async, [&] { return session->lock(b, LockMode::Exclusive, -1); });
    ASSERT_TRUE(until_pg_lock_row(pid, b.bigint_value(), "waiting"));
    // The destructor runs (and must return) while the wait holds the connection.
    auto destroyed = std::async(std::launch::async, [&] { unreleased.reset(); });
    const bool returned = ended(destroyed);
    EXPECT_TRUE(returned) << "freeing an unreleased lock waited for the connection";
    EXPECT_TRUE(until_pg_lock_row(pid, a.bigint_value(), "held")) << "the release cannot have run yet";

    other->unlock(b, LockMode::Exclusive);  // the wait ends, the connection is free
    ASSERT_TRUE(ended(waited));
    EXPECT_TRUE(waited.get());
    if (!returned) {
        ASSERT_TRUE(ended(destroyed));
    }
    EXPECT_TRUE(until_pg_lock_row(pid, a.bigint_value(), "none")) << "the deferred release never reached the server";
    EXPECT_EQ(session->hold_count(a, LockMode::Exclusive), 0);
    EXPECT_EQ(session->hold_count(b, LockMode::Exclusive), 1);
}

TEST(HeldLockDestructor, AnotherOwnerTakingTheLockBeforeTheReleaseRanKeepsIt) {
    const Key a = test_key(3), b = test_key(4);
    auto other = PgSession::open(advlock::test::postgres_url(), {});
    ASSERT_TRUE(other->try_lock(b, LockMode::Exclusive));
    auto session = PgSession::open(advlock::test::postgres_url(), {});
    const std::int64_t pid = session->server_session_id();
    std::unique_ptr<HeldLock> unreleased = held(session, a);

    auto waited = std::async(std::launch::async, [&] { return session->lock(b, LockMode::Exclusive, -1); });
    ASSERT_TRUE(until_pg_lock_row(pid, b.bigint_value(), "waiting"));
    unreleased.reset();  // the release waits for the connection
    // The owners table let go at once: a new owner of the process is admitted,
    // and queues for the connection behind the wait.
    auto retaken = std::async(std::launch::async, [&] {
        auto lock = std::make_unique<HeldLock>(session, a, LockMode::Exclusive);
        AcquireOptions wait;
        wait.timeout_ms = -1;
        return lock->acquire(wait) ? std::move(lock) : nullptr;
    });
    other->unlock(b, LockMode::Exclusive);
    ASSERT_TRUE(ended(waited));
    ASSERT_TRUE(ended(retaken));
    std::unique_ptr<HeldLock> again = retaken.get();
    ASSERT_NE(again, nullptr);
    // Every call runs the pending releases first, so the old acquisition was
    // released before the new one was taken; either order would leave the new
    // owner holding the lock on the server, as it must.
    EXPECT_EQ(session->hold_count(a, LockMode::Exclusive), 1);
    advlock::test::Psql psql;
    EXPECT_EQ(advlock::test::pg_lock_row(psql, pid, a.bigint_value()), "held");
    again->release();
    EXPECT_EQ(advlock::test::pg_lock_row(psql, pid, a.bigint_value()), "none") << "release() is synchronous";
}

TEST(HeldLockDestructor, AfterCloseNothingIsLeftToRelease) {
    auto session = PgSession::open(advlock::test::postgres_url(), {});
    std::unique_ptr<HeldLock> unreleased = held(session, test_key(5));
    session->close();
    unreleased.reset();  // neither throws nor touches the closed connection
    EXPECT_EQ(session->hold_count(test_key(5), LockMode::Exclusive), 0);
}

TEST(HeldLockDestructor, LocalBackendReleasesAtOnce) {
    advlock::test::TempDirectory directory;
    auto session = LocalSession::open("local:" + directory.path(), 1000);
    auto other = LocalSession::open("local:" + directory.path(), 1000);
    const Key a = test_key(6), b = test_key(7);
    ASSERT_TRUE(other->try_lock(b, LockMode::Shared));
    std::unique_ptr<HeldLock> unreleased = held(session, a);
    // A local wait polls outside the session's mutex: the release need not wait for it.
    auto waited = std::async(std::launch::async, [&] { return session->lock(b, LockMode::Exclusive, -1); });
    auto destroyed = std::async(std::launch::async, [&] { unreleased.reset(); });
    EXPECT_TRUE(ended(destroyed));
    EXPECT_TRUE(other->try_lock(a, LockMode::Exclusive)) << "released on the spot";
    // And it can be taken again in the other mode: no release is left pending.
    other->unlock(a, LockMode::Exclusive);
    other->unlock(b, LockMode::Shared);
    ASSERT_TRUE(ended(waited));
    EXPECT_TRUE(waited.get());
    HeldLock shared(session, a, LockMode::Shared);
    EXPECT_TRUE(shared.acquire(AcquireOptions{}));
}
