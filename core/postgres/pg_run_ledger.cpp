#include "postgres/pg_run_ledger.hpp"

#include <cstdlib>

#include "error.hpp"
#include "postgres/pg_errors.hpp"
#include "postgres/pg_result.hpp"
#include "text/message_text.hpp"

namespace advlock::core {

namespace {

// Schema-qualified, so no search_path (a role's, or one a hostile schema
// comes first in) decides which table says a period's run is done.
constexpr const char *kTable = "public.advlock_run_ledger";

PgResult run(PGconn *conn, const char *sql, const std::vector<const char *> &values, const std::string &doing,
             const std::vector<std::string> &secrets) {
    PgResult result(PQexecParams(conn, sql, static_cast<int>(values.size()), nullptr, values.data(), nullptr,
                                 nullptr, 0));
    const ExecStatusType status = result ? PQresultStatus(result.get()) : PGRES_FATAL_ERROR;
    if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) return result;
    const std::string sqlstate = sqlstate_of(result.get());
    if (sqlstate == "42P01") {
        throw Unsupported(doing + ": the run ledger table " + kTable +
                              " does not exist in this database; create it once with: advlock sql ledger | psql URL",
                          sqlstate);
    }
    if (sqlstate == "42501") {
        throw PermissionDenied(doing + ": " + trimmed_message(PQresultErrorMessage(result.get())) + " (a DBA can "
                                   "allow it: GRANT SELECT, INSERT ON " + kTable + " TO " + PQuser(conn) + ")",
                               sqlstate);
    }
    throw_pg_error(conn, result.get(), doing, true, secrets);
}

}  // namespace

std::string ledger_ddl() {
    return std::string("-- The run ledger of advlock run --once-per: one row per job and completed period.\n"
                       "CREATE TABLE IF NOT EXISTS ") +
           kTable +
           " (\n"
           "    job          pg_catalog.text        NOT NULL,  -- the lock name (or key) of the job\n"
           "    period       pg_catalog.text        NOT NULL,  -- hour, day, week or month\n"
           "    period_start pg_catalog.timestamptz NOT NULL,  -- date_trunc(period, now()) in the session's TimeZone\n"
           "    completed_at pg_catalog.timestamptz NOT NULL DEFAULT pg_catalog.now(),\n"
           "    host         pg_catalog.text,\n"
           "    PRIMARY KEY (job, period, period_start)\n"
           ");\n";
}

void validate_period(const std::string &period) {
    if (period != "hour" && period != "day" && period != "week" && period != "month") {
        throw InvalidArgument("period '" + period + "': give hour, day, week or month");
    }
}

long long ledger_completed(PGconn *conn, const std::string &job, const std::string &period,
                           const std::vector<std::string> &secrets) {
    validate_period(period);
    const PgResult result =
        run(conn,
            "SELECT (extract(epoch FROM completed_at) * 1000000)::bigint FROM public.advlock_run_ledger "
            "WHERE job = $1 AND period = $2 AND period_start = pg_catalog.date_trunc($2, pg_catalog.now())",
            {job.c_str(), period.c_str()}, "once-per " + period, secrets);
    return PQntuples(result.get()) ? std::atoll(PQgetvalue(result.get(), 0, 0)) : 0;
}

void ledger_record(PGconn *conn, const std::string &job, const std::string &period, const std::string &host,
                   const std::vector<std::string> &secrets) {
    validate_period(period);
    run(conn,
        "INSERT INTO public.advlock_run_ledger (job, period, period_start, host) "
        "VALUES ($1, $2, pg_catalog.date_trunc($2, pg_catalog.now()), $3) ON CONFLICT DO NOTHING",
        {job.c_str(), period.c_str(), host.c_str()}, "once-per " + period, secrets);
}

}  // namespace advlock::core
