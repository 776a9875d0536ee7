// Fuzz the PostgreSQL pre-check and the redaction of passwords (issue 17).
//
// First byte even: the rest is a connection string as is; check_postgres_conninfo
// may refuse it only with InvalidArgument, and whatever libpq then takes for
// the password (PQconninfoParse) must not appear in its redacted messages.
// First byte odd: the rest chooses a URL or key=value string with a marked
// password (marked_password.hpp) somewhere in it: in the credentials, as a
// password= parameter or as a key=value value, between ASCII pieces that
// hold every delimiter. No message on any path that needs no server may show
// a marker: the pre-check's refusal, PQconninfoParse's error, and libpq's
// connect error with the host replaced by a socket path that does not exist
// (it fails at once, offline; the URL's port, user and options still count).
// A generated string without an '@' after a password in its credentials is
// skipped: no reading takes that for a password (it is a port).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <libpq-fe.h>

#include "error.hpp"
#include "marked_password.hpp"
#include "postgres/pg_url.hpp"
#include "text/redact.hpp"

using namespace advlock::core;
using advlock::fuzz::Choices;

namespace {

// A connection string with a marked password; empty when the password ended
// up where no reading takes it for one (host:port with no '@' after it).
std::string generated(Choices &choices) {
    const std::string password = advlock::fuzz::marked_password(choices);
    const std::string before = advlock::fuzz::ascii_atoms(choices, 4);
    const std::string after = advlock::fuzz::ascii_atoms(choices, 6);
    switch (choices.below(5)) {
        case 0: {
            // Also what libpq takes for no URL at all (and quotes whole).
            static const char *const kSchemes[] = {"postgresql://", "postgres://", " postgresql://", "Postgresql://",
                                                   "postgresql:/", "x://"};
            return kSchemes[choices.below(std::size(kSchemes))] + before + ":" + password + "@" + after;
        }
        case 1:  // an '@' of the ASCII pieces', if any, ends the credentials
            return after.find('@') == std::string::npos ? "" : "postgresql://" + before + ":" + password + after;
        case 2: return "postgresql://" + before + "?password=" + password + after;
        case 3: return before + " password=" + password + " " + after;
        default: return before + " password = '" + password + "' " + after;
    }
}

// Error messages of libpq parsing and (with_connect) starting a connection to
// nowhere: only for generated strings, which name no hostaddr or service that
// would send a packet or read a file.
std::string libpq_errors(const std::string &conninfo, bool with_connect) {
    std::string messages;
    char *error = nullptr;
    if (PQconninfoOption *options = PQconninfoParse(conninfo.c_str(), &error)) PQconninfoFree(options);
    if (error) messages += error;
    PQfreemem(error);
    if (!with_connect) return messages;
    // Later keywords win over what the expanded dbname set, as in PgConnection.
    const char *keywords[] = {"dbname", "host", nullptr};
    const char *values[] = {conninfo.c_str(), "/nonexistent-advlock-fuzz", nullptr};
    PGconn *conn = PQconnectStartParams(keywords, values, /*expand_dbname=*/1);
    for (int i = 0; conn && i < 100 && PQstatus(conn) != CONNECTION_BAD && PQstatus(conn) != CONNECTION_OK; ++i) {
        if (PQconnectPoll(conn) == PGRES_POLLING_FAILED) break;
    }
    if (conn) messages += PQerrorMessage(conn);
    PQfinish(conn);
    return messages;
}

// libpq's own password for conninfo, when it parses.
std::string libpq_password(const std::string &conninfo) {
    std::string password;
    PQconninfoOption *options = PQconninfoParse(conninfo.c_str(), nullptr);
    for (const PQconninfoOption *o = options; o && o->keyword; ++o) {
        if (std::string_view(o->keyword) == "password" && o->val) password = o->val;
    }
    PQconninfoFree(options);
    return password;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size == 0) return 0;
    Choices choices(data + 1, size - 1);
    const bool marked = data[0] & 1;
    const std::string conninfo =
        marked ? generated(choices) : std::string(reinterpret_cast<const char *>(data + 1), size - 1);
    if (conninfo.empty() || conninfo.find('\0') != std::string::npos) return 0;  // a C string cannot hold it
    try {
        check_postgres_conninfo(conninfo);
    } catch (const InvalidArgument &e) {
        if (marked) advlock::fuzz::expect_no_marker(conninfo, "pre-check", e.what());
        return 0;
    }
    const std::string redacted = redact(libpq_errors(conninfo, marked), secrets_in_conninfo(conninfo));
    if (marked) {
        advlock::fuzz::expect_no_marker(conninfo, "libpq, redacted", redacted);
    } else if (const std::string password = libpq_password(conninfo);
               password.size() >= 2 && redacted.find(password) != std::string::npos) {
        std::abort();
    }
    return 0;
}
