// The run ledger behind `advlock run --once-per PERIOD`: a table recording that
// a job completed in a period (hour, day, week, month), so a job that already
// ran skips even when started again later. Read and written on the lock
// session's own connection while it holds the job's lock, so two hosts cannot
// both find the period empty and both run.
#pragma once

#include <string>
#include <vector>

#include <libpq-fe.h>

namespace advlock::core {

// CREATE TABLE for the ledger (what `advlock sql ledger` prints).
std::string ledger_ddl();

// Throws InvalidArgument unless period is hour, day, week or month.
void validate_period(const std::string &period);

// The time the job completed in the current period (unix microseconds), or 0.
// A missing ledger table is reported as Unsupported, saying how to create it.
long long ledger_completed(PGconn *conn, const std::string &job, const std::string &period,
                           const std::vector<std::string> &secrets);

// Record that the job completed in the current period (once; later records are ignored).
void ledger_record(PGconn *conn, const std::string &job, const std::string &period, const std::string &host,
                   const std::vector<std::string> &secrets);

}  // namespace advlock::core
