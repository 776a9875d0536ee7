// The settings advlock applies to its lock connection, read back on that very
// connection (through the core, since the C ABI runs no arbitrary SQL).
#include <gtest/gtest.h>

#include <libpq-fe.h>

#include <memory>
#include <string>

#include "postgres/pg_connection.hpp"
#include "postgres/pg_timeouts.hpp"
#include "support/test_postgres.hpp"

using namespace advlock::core;

namespace {

std::string show(PGconn *conn, const std::string &setting) {
    std::unique_ptr<PGresult, decltype(&PQclear)> result(PQexec(conn, ("SHOW " + setting).c_str()), &PQclear);
    return PQresultStatus(result.get()) == PGRES_TUPLES_OK ? PQgetvalue(result.get(), 0, 0) : "<error>";
}

}  // namespace

TEST(SessionSettings, ServerSideKeepalivesAndChecksAreSet) {
    PgConnection connection = PgConnection::open(advlock::test::postgres_url(), {});
    PGconn *conn = connection.get();
    // The default silence limit, 18 s: 9 s idle + 3 probes x 3 s.
    EXPECT_EQ(show(conn, "tcp_keepalives_idle"), "9");
    EXPECT_EQ(show(conn, "tcp_keepalives_interval"), "3");
    EXPECT_EQ(show(conn, "tcp_keepalives_count"), "3");
    EXPECT_EQ(show(conn, "tcp_user_timeout"), "18000");
    EXPECT_EQ(show(conn, "client_connection_check_interval"), "5s");
    // Nothing that would end an idle lock session or cut a wait short.
    for (const char *off : {"statement_timeout", "lock_timeout", "idle_session_timeout",
                            "idle_in_transaction_session_timeout"}) {
        EXPECT_EQ(show(conn, off), "0") << off;
    }
    EXPECT_EQ(show(conn, "search_path"), "pg_catalog, pg_temp");
    EXPECT_EQ(connection.backend_pid(), PQbackendPID(conn));
}

TEST(SessionSettings, ALongerStopGraceMovesTheServersSilenceLimit) {
    // advlock run --kill-grace 15s: 2 + 3 + 15 + 3 = 23 s, 11 s idle + 3 x 4 s.
    PgConnectOptions options;
    options.silence_limit_s = server_silence_limit_s(HeartbeatSettings{2000, 3000, 15000});
    PgConnection connection = PgConnection::open(advlock::test::postgres_url(), options);
    EXPECT_EQ(show(connection.get(), "tcp_keepalives_idle"), "11");
    EXPECT_EQ(show(connection.get(), "tcp_keepalives_interval"), "4");
    EXPECT_EQ(show(connection.get(), "tcp_user_timeout"), "23000");
}

std::string target_session_attrs(PGconn *conn) {
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> info(PQconninfo(conn), &PQconninfoFree);
    for (PQconninfoOption *o = info.get(); o->keyword; ++o) {
        if (std::string(o->keyword) == "target_session_attrs") return o->val ? o->val : "";
    }
    return "<none>";
}

TEST(SessionSettings, OnlyAUrlWithSeveralHostsAsksLibpqForAWritableOne) {
    // One host: connected to whatever answers, then checked (and a standby
    // named as such); several: libpq skips the read-only ones.
    const std::string url = advlock::test::postgres_url();
    PgConnection single = PgConnection::open(url, {});
    EXPECT_EQ(target_session_attrs(single.get()), "any");

    const auto authority_start = url.find('@') + 1;
    const auto authority_end = url.find('/', authority_start);
    const std::string authority = url.substr(authority_start, authority_end - authority_start);
    const std::string twice = url.substr(0, authority_start) + authority + "," + authority + url.substr(authority_end);
    PgConnection several = PgConnection::open(twice, {});
    EXPECT_EQ(target_session_attrs(several.get()), "read-write") << twice;
}

TEST(SessionSettings, ClientKeepalivesAreTheDefaults) {
    PgConnection connection = PgConnection::open(advlock::test::postgres_url(), {});
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> info(PQconninfo(connection.get()), &PQconninfoFree);
    std::string keepalives_idle, user_timeout;
    for (PQconninfoOption *o = info.get(); o->keyword; ++o) {
        const std::string keyword = o->keyword;
        const std::string value = o->val ? o->val : "";
        if (keyword == "keepalives_idle") keepalives_idle = value;
        if (keyword == "tcp_user_timeout") user_timeout = value;
    }
    EXPECT_EQ(keepalives_idle, pg_timeouts::kClientKeepalivesIdle);
    EXPECT_EQ(user_timeout, pg_timeouts::kClientTcpUserTimeoutMs);
}

TEST(SessionSettings, TheUrlWinsOverDefaults) {
    PgConnection connection =
        PgConnection::open(advlock::test::postgres_url() + "?keepalives_idle=42&application_name=mine", {});
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> info(PQconninfo(connection.get()), &PQconninfoFree);
    for (PQconninfoOption *o = info.get(); o->keyword; ++o) {
        if (std::string(o->keyword) == "keepalives_idle") {
            EXPECT_STREQ(o->val, "42");
        }
    }
    EXPECT_EQ(show(connection.get(), "application_name"), "mine");
}
