// libpq's functions as advlock calls them, each loading libpq.so.5 on its
// first call (on_demand_library.hpp). Every definition must match libpq-fe.h's
// declaration, or this does not compile: a libpq whose API changed cannot be
// called with the wrong types. Add a function here when the core starts
// calling it (the link of libadvlock.so fails until then).
#include <libpq-fe.h>

#include "client_libraries/on_demand_library.hpp"

namespace {

const advlock::core::OnDemandLibrary &libpq() {
    static const advlock::core::OnDemandLibrary library(
        "libpq.so.5", "PostgreSQL URLs need libpq, PostgreSQL's client library (Debian: apt-get install libpq5)");
    return library;
}

}  // namespace

// The function pointer is looked up once (a function-local static: a lookup
// that throws is tried again on the next call).
#define ADVLOCK_LIBPQ(result, name, parameters, arguments)                             \
    extern "C" result name parameters {                                                \
        static const auto real = libpq().function<decltype(&::name)>(#name);           \
        return real arguments;                                                         \
    }

ADVLOCK_LIBPQ(int, PQbackendPID, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(int, PQcancel, (PGcancel *cancel, char *errbuf, int errbufsize), (cancel, errbuf, errbufsize))
ADVLOCK_LIBPQ(void, PQclear, (PGresult *res), (res))
ADVLOCK_LIBPQ(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(PGconn *, PQconnectStartParams,
              (const char *const *keywords, const char *const *values, int expand_dbname),
              (keywords, values, expand_dbname))
ADVLOCK_LIBPQ(PQconninfoOption *, PQconninfo, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(void, PQconninfoFree, (PQconninfoOption *connOptions), (connOptions))
ADVLOCK_LIBPQ(PQconninfoOption *, PQconninfoParse, (const char *conninfo, char **errmsg), (conninfo, errmsg))
ADVLOCK_LIBPQ(int, PQconsumeInput, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(char *, PQdb, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(char *, PQerrorMessage, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(PGresult *, PQexec, (PGconn *conn, const char *query), (conn, query))
ADVLOCK_LIBPQ(PGresult *, PQexecParams,
              (PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
               const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat),
              (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat))
ADVLOCK_LIBPQ(PGresult *, PQexecPrepared,
              (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
               const int *paramLengths, const int *paramFormats, int resultFormat),
              (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
ADVLOCK_LIBPQ(void, PQfinish, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(void, PQfreeCancel, (PGcancel *cancel), (cancel))
ADVLOCK_LIBPQ(void, PQfreemem, (void *ptr), (ptr))
ADVLOCK_LIBPQ(PGcancel *, PQgetCancel, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(PGresult *, PQgetResult, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(int, PQgetisnull, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
ADVLOCK_LIBPQ(char *, PQgetvalue, (const PGresult *res, int tup_num, int field_num), (res, tup_num, field_num))
ADVLOCK_LIBPQ(char *, PQhost, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(int, PQisBusy, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(int, PQnfields, (const PGresult *res), (res))
ADVLOCK_LIBPQ(PGnotify *, PQnotifies, (PGconn *conn), (conn))
ADVLOCK_LIBPQ(int, PQntuples, (const PGresult *res), (res))
ADVLOCK_LIBPQ(char *, PQport, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(PGresult *, PQprepare,
              (PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes),
              (conn, stmtName, query, nParams, paramTypes))
ADVLOCK_LIBPQ(char *, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))
ADVLOCK_LIBPQ(char *, PQresultErrorMessage, (const PGresult *res), (res))
ADVLOCK_LIBPQ(ExecStatusType, PQresultStatus, (const PGresult *res), (res))
ADVLOCK_LIBPQ(int, PQsendQuery, (PGconn *conn, const char *query), (conn, query))
ADVLOCK_LIBPQ(int, PQsendQueryPrepared,
              (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
               const int *paramLengths, const int *paramFormats, int resultFormat),
              (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
ADVLOCK_LIBPQ(int, PQserverVersion, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(PQnoticeReceiver, PQsetNoticeReceiver, (PGconn *conn, PQnoticeReceiver proc, void *arg),
              (conn, proc, arg))
ADVLOCK_LIBPQ(int, PQsocket, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(ConnStatusType, PQstatus, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(PGTransactionStatusType, PQtransactionStatus, (const PGconn *conn), (conn))
ADVLOCK_LIBPQ(char *, PQuser, (const PGconn *conn), (conn))
