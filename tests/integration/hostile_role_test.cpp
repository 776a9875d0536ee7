// What a DBA's role settings, schemas and grants can do to advlock, tried on a
// server of each test's own (role, schema and grant changes are server-wide):
// a search_path that puts look-alike functions, operators, views and tables
// first; timeouts and a read-only default set on the role; EXECUTE revoked from
// everyone but one role.
#include <gtest/gtest.h>


#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "advlock.h"
#include "support/c_handles.hpp"
#include "support/lost_recorder.hpp"
#include "support/scripted_server.hpp"

using namespace advlock::test;

namespace {

// Look-alikes of everything advlock's SQL names, in a schema a role setting
// puts before pg_catalog: each says "granted", "not in recovery", "nothing
// held" or "already done", so any unqualified name lets a second holder in.
constexpr const char *kEvilSchema = R"sql(
CREATE SCHEMA evil;
GRANT USAGE ON SCHEMA evil TO PUBLIC;
CREATE FUNCTION evil.pg_try_advisory_lock(bigint) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION evil.pg_try_advisory_lock(integer, integer) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION evil.pg_advisory_lock(bigint) RETURNS void LANGUAGE plpgsql AS 'BEGIN END';
CREATE FUNCTION evil.pg_advisory_lock(integer, integer) RETURNS void LANGUAGE plpgsql AS 'BEGIN END';
CREATE FUNCTION evil.pg_advisory_unlock(bigint) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION evil.pg_advisory_unlock(integer, integer) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE FUNCTION evil.pg_backend_pid() RETURNS integer LANGUAGE sql AS 'SELECT 1';
CREATE FUNCTION evil.pg_is_in_recovery() RETURNS boolean LANGUAGE sql AS 'SELECT false';
CREATE FUNCTION evil.current_setting(text) RETURNS text LANGUAGE sql AS 'SELECT ''off''::pg_catalog.text';
CREATE FUNCTION evil.sha256(bytea) RETURNS bytea LANGUAGE sql AS 'SELECT ''\x00''::pg_catalog.bytea';
CREATE FUNCTION evil.cat(text, text) RETURNS text LANGUAGE sql AS 'SELECT ''x0000000000000001''::pg_catalog.text';
CREATE OPERATOR evil.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.cat);
CREATE VIEW evil.pg_locks AS SELECT * FROM pg_catalog.pg_locks WHERE false;
CREATE TABLE evil.advlock_run_ledger (job text, period text, period_start timestamptz, completed_at timestamptz,
                                      host text);
INSERT INTO evil.advlock_run_ledger VALUES ('nightly', 'day', pg_catalog.date_trunc('day', pg_catalog.now()),
                                            pg_catalog.now(), 'evil');
GRANT SELECT, INSERT ON evil.advlock_run_ledger TO PUBLIC;
ALTER ROLE batch SET search_path = evil, pg_catalog;
)sql";

advlock_status try_once(const Session &session, const advlock_key &key, Lock &out) {
    advlock_lock *lock = nullptr;
    const advlock_status status = advlock_session_try_lock(&lock, session.get(), of_key(key), ADVLOCK_EXCLUSIVE);
    out.reset(lock);
    return status;
}

std::string owned(char *text) {
    const std::string copy = text ? text : "";
    advlock_free(text);
    return copy;
}

}  // namespace

class HostileRole : public ::testing::Test {
protected:
    void SetUp() override {
        admin_.script("CREATE ROLE batch LOGIN PASSWORD 'batch-pw'");
        batch_url_ = with_credentials(server_.url(), "batch", "batch-pw");
    }

    ScriptedServer server_{"pg-start.sh", "pg-stop.sh"};
    Psql admin_{server_.url()};
    std::string batch_url_;
};

TEST_F(HostileRole, SearchPathCannotLetASecondHolderIn) {
    admin_.script(kEvilSchema);
    Session first = open_session(nullptr, batch_url_);
    Session second = open_session(nullptr, batch_url_);
    ASSERT_TRUE(first && second);
    for (const advlock_key key : {test_key(), advlock_key_pair(7, 7)}) {
        Lock held, refused, waited;
        ASSERT_EQ(try_once(first, key, held), ADVLOCK_OK) << advlock_error_last()->message;
        EXPECT_EQ(try_once(second, key, refused), ADVLOCK_NOT_ACQUIRED) << advlock_error_last()->message;
        advlock_lock *lock = nullptr;
        EXPECT_EQ(advlock_session_lock(&lock, second.get(), of_key(key), ADVLOCK_EXCLUSIVE, 50), ADVLOCK_NOT_ACQUIRED);
        waited.reset(lock);

        advlock_holders *raw = nullptr;
        ASSERT_EQ(advlock_session_holders(&raw, second.get(), nullptr, of_key(key)), ADVLOCK_OK);
        Holders holders(raw);
        EXPECT_EQ(advlock_holders_count(holders.get()), 1u) << "the look-alike pg_locks view hides the holder";

        // The SQL advlock gives users, run by the same role in its own session.
        char sql[ADVLOCK_SQL_TEXT_SIZE];
        ASSERT_EQ(advlock_sql(sql, sizeof sql, ADVLOCK_SQL_TRY_LOCK, &key, ADVLOCK_EXCLUSIVE), ADVLOCK_OK);
        Psql batch(batch_url_);
        EXPECT_EQ(batch.value(sql), "f") << sql;
        ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK) << advlock_error_last()->message;
    }

    char *expression = nullptr;
    ASSERT_EQ(advlock_key_name_sql(&expression, "daily_sales", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    advlock_key named;
    ASSERT_EQ(advlock_key_from_name(&named, "daily_sales", ADVLOCK_NUL_TERMINATED), ADVLOCK_OK);
    Psql batch(batch_url_);
    EXPECT_EQ(batch.value("SELECT " + owned(expression)), std::to_string(named.bigint));
}

// A set's statements (one try-all with its undo, one wait-all, the undo
// after a failed wait) name every function and operator with its schema too:
// the look-alikes would grant the second set, or skip the undo of its grants.
TEST_F(HostileRole, SearchPathCannotLetASecondHolderIntoASet) {
    admin_.script(kEvilSchema);
    Session first = open_session(nullptr, batch_url_);
    Session second = open_session(nullptr, batch_url_);
    ASSERT_TRUE(first && second);
    // Sets are taken in key order, pairs by (k1, k2): the second's sets are
    // granted (7, 8) before they meet (7, 9), so each has a grant to undo.
    const advlock_key a = test_key(), free_pair = advlock_key_pair(7, 8), held_pair = advlock_key_pair(7, 9);
    std::vector<Lock> held, refused, waited;
    ASSERT_EQ(acquire_all(&held, first, targets_of({a, held_pair})), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(acquire_all(&refused, second, targets_of({free_pair, held_pair})), ADVLOCK_NOT_ACQUIRED)
        << advlock_error_last()->message;
    EXPECT_EQ(advisory_locks_of(admin_, backend_pid(second)), "") << "the try's undo left its grant";
    EXPECT_EQ(acquire_all(&waited, second, targets_of({free_pair, held_pair}), 50), ADVLOCK_NOT_ACQUIRED)
        << advlock_error_last()->message;
    EXPECT_EQ(advisory_locks_of(admin_, backend_pid(second)), "") << "the wait's undo left its grant";

    std::vector<advlock_lock *> handles{held[0].get(), held[1].get()};
    ASSERT_EQ(advlock_lock_release_all(handles.data(), handles.size()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(advisory_locks_of(admin_, backend_pid(first)), "") << "the look-alike unlock released nothing";
}

// The role's statement and lock timeouts neither cut a set's wait short nor
// turn it into an error: it waits as long as the caller said, here without
// limit, past both, and gets the set once the holder lets go.
TEST_F(HostileRole, RoleTimeoutsDoNotEndASetsWait) {
    admin_.script("ALTER ROLE batch SET statement_timeout = '200ms';"
                  "ALTER ROLE batch SET lock_timeout = '100ms';");
    Session holder = open_session(nullptr, batch_url_);
    Session waiter = open_session(nullptr, batch_url_);
    ASSERT_TRUE(holder && waiter);
    const advlock_key a = test_key("a"), b = test_key("b");
    Lock held = take(holder, b);
    ASSERT_NE(held, nullptr);

    std::vector<Lock> waited;
    std::thread wait([&] {
        EXPECT_EQ(acquire_all(&waited, waiter, targets_of({a, b}), -1), ADVLOCK_OK) << advlock_error_last()->message;
    });
    wait_until_waiting(admin_, backend_pid(waiter));
    std::this_thread::sleep_for(std::chrono::milliseconds(600));  // three statement timeouts' worth
    const std::string during = advisory_locks_of(admin_, backend_pid(waiter));
    EXPECT_NE(during.find("waiting"), std::string::npos) << "the wait ended early: " << during;
    ASSERT_EQ(advlock_lock_release(held.get()), ADVLOCK_OK) << advlock_error_last()->message;
    wait.join();
    EXPECT_EQ(advisory_locks_of(admin_, backend_pid(waiter)), "granted,granted");
}

TEST_F(HostileRole, SearchPathCannotChooseTheRunLedger) {
    admin_.script(kEvilSchema);
    admin_.script(owned([] {
        char *ddl = nullptr;
        EXPECT_EQ(advlock_sql_ledger(&ddl), ADVLOCK_OK);
        return ddl;
    }()));
    admin_.script("GRANT SELECT, INSERT ON public.advlock_run_ledger TO batch");
    Session session = open_session(nullptr, batch_url_);
    int64_t completed = -1;
    ASSERT_EQ(advlock_session_ledger_completed(&completed, session.get(), "nightly", "day"), ADVLOCK_OK)
        << advlock_error_last()->message;
    EXPECT_EQ(completed, 0) << "read evil.advlock_run_ledger instead of public's";
    ASSERT_EQ(advlock_session_ledger_record(session.get(), "nightly", "day", "here"), ADVLOCK_OK)
        << advlock_error_last()->message;
    EXPECT_EQ(admin_.value("SELECT host FROM public.advlock_run_ledger WHERE job = 'nightly'"), "here");

    admin_.script("REVOKE SELECT, INSERT ON public.advlock_run_ledger FROM batch");
    EXPECT_EQ(advlock_session_ledger_completed(&completed, session.get(), "nightly", "day"), ADVLOCK_EPERMISSION);
    EXPECT_NE(std::string(advlock_error_last()->message).find("GRANT SELECT, INSERT ON public.advlock_run_ledger TO batch"),
              std::string::npos)
        << advlock_error_last()->message;
}

TEST_F(HostileRole, RoleSettingsNeitherEndNorCutTheSession) {
    admin_.script("ALTER ROLE batch SET idle_session_timeout = '300ms';"
                  "ALTER ROLE batch SET idle_in_transaction_session_timeout = '300ms';"
                  "ALTER ROLE batch SET statement_timeout = '200ms';"
                  "ALTER ROLE batch SET lock_timeout = '100ms';"
                  "ALTER ROLE batch SET default_transaction_read_only = on;"
                  "CREATE TABLE public.advlock_run_ledger (job text, period text, period_start timestamptz,"
                  " completed_at timestamptz DEFAULT now(), host text, PRIMARY KEY (job, period, period_start));"
                  "GRANT SELECT, INSERT ON public.advlock_run_ledger TO batch");
    LostRecorder recorder;
    advlock_session_options options;
    advlock_session_options_init(&options, ADVLOCK_SESSION_OPTIONS_VERSION);
    options.on_lost = &LostRecorder::callback;
    options.on_lost_payload = &recorder;
    advlock_session *raw = nullptr;
    ASSERT_EQ(advlock_session_open(&raw, batch_url_.c_str(), &options), ADVLOCK_OK)
        << "a read-only default set on the role is not a read-only server: " << advlock_error_last()->message;
    Session holder(raw);
    Session waiter = open_session(nullptr, batch_url_);
    const advlock_key key = test_key();
    Lock held = take(holder, key);
    ASSERT_NE(held, nullptr);

    // A wait longer than the role's statement and lock timeouts ends as the
    // caller's own timeout (not acquired), not as a cancelled statement.
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, waiter.get(), of_key(key), ADVLOCK_EXCLUSIVE, 600), ADVLOCK_NOT_ACQUIRED)
        << advlock_error_last()->message;
    advlock_lock_free(lock);

    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // five idle timeouts' worth
    EXPECT_EQ(advlock_lock_check(held.get()), ADVLOCK_OK) << advlock_error_last()->message;
    EXPECT_EQ(recorder.count(), 0);
    EXPECT_EQ(advlock_session_ledger_record(holder.get(), "nightly", "day", nullptr), ADVLOCK_OK)
        << "the session's transactions are read-write: " << advlock_error_last()->message;
}

TEST_F(HostileRole, RevokedRightsAreEpermissionAndLookingNeedsNone) {
    const std::string revoke = owned([] {
        char *sql = nullptr;
        EXPECT_EQ(advlock_sql_privileges(&sql, "PUBLIC", 0), ADVLOCK_OK);
        return sql;
    }());
    const std::string grant = owned([] {
        char *sql = nullptr;
        EXPECT_EQ(advlock_sql_privileges(&sql, "batch", 1), ADVLOCK_OK);
        return sql;
    }());
    admin_.script(revoke + grant + "CREATE ROLE intruder LOGIN PASSWORD 'intruder-pw'");
    const std::string intruder_url = with_credentials(server_.url(), "intruder", "intruder-pw");

    Session batch = open_session(nullptr, batch_url_);
    const advlock_key key = test_key();
    Lock held = take(batch, key);
    ASSERT_NE(held, nullptr) << "the granted role locks as before";

    Session intruder = open_session(nullptr, intruder_url);
    ASSERT_NE(intruder, nullptr) << "a role without lock rights may still connect to look";
    Lock refused;
    EXPECT_EQ(try_once(intruder, key, refused), ADVLOCK_EPERMISSION);
    EXPECT_STREQ(advlock_error_last()->sqlstate, "42501");
    EXPECT_NE(std::string(advlock_error_last()->message).find("advlock sql grant --role intruder"), std::string::npos)
        << advlock_error_last()->message;
    advlock_lock *lock = nullptr;
    EXPECT_EQ(advlock_session_lock(&lock, intruder.get(), of_key(key), ADVLOCK_EXCLUSIVE, 50), ADVLOCK_EPERMISSION);

    advlock_holders *raw = nullptr;
    ASSERT_EQ(advlock_session_holders(&raw, intruder.get(), nullptr, of_key(key)), ADVLOCK_OK)
        << advlock_error_last()->message;
    Holders holders(raw);
    EXPECT_EQ(advlock_holders_count(holders.get()), 1u);
    EXPECT_EQ(advlock_session_check(intruder.get()), ADVLOCK_OK) << "its heartbeat needs no lock rights either";
}
