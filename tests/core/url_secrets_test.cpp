// Passwords in connection strings (issue 17): ambiguous URLs are refused with
// a message that quotes none of the credentials, and every reading of a
// password is scrubbed from libpq's messages. No server needed.
#include <gtest/gtest.h>

#include <libpq-fe.h>

#include "error.hpp"
#include "mysql/mysql_url.hpp"
#include "postgres/pg_url.hpp"
#include "text/redact.hpp"

namespace advlock::core {
namespace {

// The message parse refuses text with ("" if it does not).
template <typename Parse>
std::string refusal(Parse parse, const std::string &text) {
    try {
        parse(text);
    } catch (const InvalidArgument &e) {
        return e.what();
    }
    return "";
}

std::string postgres_refusal(const std::string &text) { return refusal(check_postgres_conninfo, text); }
std::string mysql_refusal(const std::string &text) {
    return refusal([](const std::string &url) { parse_mysql_url(url); }, text);
}

// What libpq says when it is asked to connect, without any server: only
// strings that fail before a host name is looked up.
std::string libpq_connect_error(const std::string &conninfo) {
    PGconn *conn = PQconnectdb(conninfo.c_str());
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    return message;
}

TEST(UrlSecrets, IssueExamplesAreRefusedWithoutAPieceOfThePassword) {
    const std::string slash = postgres_refusal("postgresql://u:TopSe/cret@h");
    EXPECT_NE(slash.find("an '@' after a '/' or '?'"), std::string::npos) << slash;
    EXPECT_NE(slash.find("'/' as %2F"), std::string::npos) << slash;
    EXPECT_NE(slash.find("PGPASSWORD"), std::string::npos) << slash;

    const std::string two_at = postgres_refusal("postgresql://u:TopSe@cret@h");
    EXPECT_NE(two_at.find("more than one '@'"), std::string::npos) << two_at;

    const std::string mysql = mysql_refusal("mysql://u:TopSe/x@h");
    EXPECT_NE(mysql.find("MySQL URL"), std::string::npos) << mysql;
    EXPECT_NE(mysql.find("an '@' after a '/' or '?'"), std::string::npos) << mysql;

    for (const std::string &message : {slash, two_at, mysql}) {
        for (const char *piece : {"TopSe", "cret", "x@h", "u:"}) {
            EXPECT_EQ(message.find(piece), std::string::npos) << piece << " in: " << message;
        }
    }
}

TEST(UrlSecrets, OtherAmbiguousCredentialsAreRefused) {
    for (const char *url : {"postgresql://u:Top?Secret@h/db", "postgresql://u:Top#Secret@h/db",
                            "postgresql://u:TopSecret@h/db#x", "postgresql://u:Top%zzSecret@h/db",
                            "postgresql://u:Top%00Secret@h/db", "postgresql://u:TopSecret%4@h/db",
                            "postgresql://h/db?password=Top@Secret", "postgres://u:Top/Secret@h"}) {
        const std::string message = postgres_refusal(url);
        EXPECT_NE(message, "") << url;
        EXPECT_EQ(message.find("Top"), std::string::npos) << message;
        EXPECT_EQ(message.find("Secret"), std::string::npos) << message;
    }
    for (const char *url : {"mysql://u:Top?Secret@h/db", "mariadb://u:Top@Secret@h/db", "mysql://u:Top#Secret@h",
                            "mysql://u:Top%zzSecret@h"}) {
        const std::string message = mysql_refusal(url);
        EXPECT_NE(message, "") << url;
        EXPECT_EQ(message.find("Top"), std::string::npos) << message;
        EXPECT_EQ(message.find("Secret"), std::string::npos) << message;
    }
}

TEST(UrlSecrets, PlainUrlsAndConninfoPass) {
    for (const char *text : {"", "postgresql://u:p%2Fw%40rd@h:5432/db", "postgresql://u@[::1]:5432,h2/db?sslmode=require",
                             "postgres://h", "host=h password='a b' dbname=x", "postgresql:///db?host=/tmp"}) {
        EXPECT_EQ(postgres_refusal(text), "") << text;
    }
    const MysqlUrl url = parse_mysql_url("mysql://u:p%2Fw%40rd@h:3307/db");
    EXPECT_EQ(url.password, "p/w@rd");
    EXPECT_EQ(url.port, 3307u);
}

TEST(UrlSecrets, OtherSchemesAreNotPostgresUrls) {
    const std::string message = postgres_refusal("POSTGRESQL://u:TopSecret@h/db");
    EXPECT_NE(message.find("not a PostgreSQL URL"), std::string::npos) << message;
    EXPECT_EQ(message.find("TopSecret"), std::string::npos) << message;
}

TEST(UrlSecrets, LibpqParseErrorsLoseTheirQuotesWhenAPasswordIsNear) {
    // libpq: password "abc", then "def" without '=' - quoted in its message.
    const std::string message = postgres_refusal("host=h password=abc def");
    EXPECT_NE(message.find("invalid PostgreSQL connection string: missing \"=\""), std::string::npos) << message;
    EXPECT_EQ(message.find("def"), std::string::npos) << message;
    // Without a password, libpq's words stay whole: they name the mistake.
    const std::string plain = postgres_refusal("host=h bogus_option=1");
    EXPECT_NE(plain.find("\"bogus_option\""), std::string::npos) << plain;
    // With a space before it, a URL is no URL to libpq, which quotes it whole.
    const std::string spaced = postgres_refusal(" postgresql://u:TopSe/cret@h");
    EXPECT_NE(spaced, "");
    EXPECT_EQ(spaced.find("TopSe"), std::string::npos) << spaced;
    const std::string parameter = postgres_refusal("postgresql://u:pw@h/db?bogus=1");
    EXPECT_EQ(parameter.find("bogus"), std::string::npos) << parameter;
    EXPECT_NE(parameter.find("invalid URI query parameter"), std::string::npos) << parameter;
}

TEST(UrlSecrets, EveryReadingOfThePasswordIsScrubbedFromLibpqsMessages) {
    // libpq reads host "u", port "TopSe" and says so; the refusal above keeps
    // this from happening, and redaction would scrub it anyway.
    const std::string url = "postgresql://u:TopSe/cret@h";
    const std::string libpq = libpq_connect_error(url);
    ASSERT_NE(libpq.find("TopSe"), std::string::npos) << libpq;
    const std::string scrubbed = redact(libpq, secrets_in_conninfo(url));
    EXPECT_EQ(scrubbed.find("TopSe"), std::string::npos) << scrubbed;

    const std::string two_at = "postgresql://u:TopSe@cret@h";
    const std::string message = redact("could not translate host name \"cret@h\"; password TopSe", secrets_in_conninfo(two_at));
    EXPECT_EQ(message.find("cret"), std::string::npos) << message;
    EXPECT_EQ(message.find("TopSe"), std::string::npos) << message;

    // key=value: libpq unescapes backslashes in unquoted values too.
    EXPECT_EQ(redact("got a b", secrets_in_conninfo("password=a\\ b host=h")), "got ********");
    // A percent-encoded keyword is still libpq's password.
    EXPECT_EQ(redact("got hunter2", secrets_in_conninfo("postgresql://h/db?pass%77ord=hunter2")), "got ********");
    EXPECT_EQ(redact("got hunter2", secrets_in_conninfo("host=h sslpassword=hunter2")), "got ********");
}

}  // namespace
}  // namespace advlock::core
