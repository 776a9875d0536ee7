// The table of subcommands and their --help texts.
#include "commands.hpp"

namespace advlock::cli {

namespace {

const char *const kRunHelp = R"(usage: advlock run --db URL (--key KEY | --name NAME) [options] -- COMMAND [ARGS...]

Run COMMAND while holding the lock, on one dedicated database connection. If
another host or process holds it, do not run COMMAND: say who holds it and exit
3. COMMAND runs in a process group of its own; the job is COMMAND and every
process it starts, and the lock is held until all of them have ended. If the
lock is lost, stop the whole job (SIGTERM, then SIGKILL after --kill-grace) and
exit 75. If advlock itself is killed, the job is killed with it. Otherwise exit
with COMMAND's own code (128+N if a signal N ended it). TERM, INT, HUP and QUIT
sent to advlock go to the whole job (SIGKILL after --kill-grace); USR1 and USR2
to COMMAND. A signal while waiting for the lock cancels the wait: exit 128+N.

  --db URL                 postgresql://user@host/db or a libpq conninfo;
                           mysql://user:pw@host/db (MySQL, MariaDB); or
                           local (local:/dir, file:/dir): flock(2) on this host
                           only, in /run/lock/advlock by default (required)
  --also-local             take the lock on this host (flock) first, then in
                           the database
  --local-url URL          the host's lock directory for --also-local (default
                           local; local:/DIR?group=NAME for one group's jobs)
  --key KEY                100:1 (pair), -42 (bigint) or name:TEXT
  --name NAME              a lock name: looked up in --registry when given,
                           else the advlock key of the name
                           --key and --name more than once: a set of locks,
                           all of them or none (one round trip on PostgreSQL;
                           taken in key order, so jobs wanting overlapping
                           sets never deadlock); not with --slots, --fence,
                           --once-per
  --registry FILE          the registry of lock names and keys
  --config FILE            settings file (default /etc/advlock.toml when it
                           exists): database, registry, also_local, local_url,
                           and under [run] wait, kill_grace, conflict_exit_code;
                           options given here win
  --wait DURATION          wait up to DURATION for the lock (500ms, 30s, 10m...,
                           at most 24d); default: do not wait. On a terminal a
                           live line shows who holds it and for how long; quiet
                           otherwise
  --shared                 a shared lock: shared holders run together and
                           exclude exclusive ones
  --conflict-exit-code N   exit code when the lock is held elsewhere (default 3)
  --kill-grace DURATION    time between SIGTERM and SIGKILL when the job is
                           stopped (default 10s, at most 1h); the server frees
                           a silent client's lock only after this + 8s
  --application-name NAME  shown in pg_stat_activity (default "advlock run COMMAND")
  --once-per PERIOD        hour, day, week or month: skip (exit 0) when the job
                           already completed in this period, and record it when
                           COMMAND exits 0; needs the ledger table (advlock sql ledger)
  --slots N                job slots, at most N runs at once (1 to 64): take any
                           one free slot of N (with --wait, the first to free);
                           COMMAND gets ADVLOCK_SLOT (1..N) and ADVLOCK_SLOTS=N.
                           Exclusive; not with --once-per
  --fence                  issue a fencing token with the lock (PostgreSQL; needs
                           the fence table: advlock sql fence). COMMAND gets
                           ADVLOCK_FENCE_TOKEN, ADVLOCK_FENCE_KEY (the key held)
                           and ADVLOCK_FENCE_CHECK_SQL, the check to run in its
                           own transaction before COMMIT: it fails (SQLSTATE
                           55T01) once a newer holder took the lock

Exit codes: COMMAND's own; 3 held elsewhere (with --slots: every slot; for a
set: any of its locks); 64 usage error; 69 cannot connect, the server is a
standby, read-only or behind a pooler, or a server error; 70 a bug in advlock;
75 the lock was lost; 77 the role may not take advisory locks (or this user may
not use the local lock file); 78 to set up or fix first: invalid registry or
config, a local lock directory or file another user could change, no ledger
table for --once-per or fence table for --fence, an option this backend cannot
do (--fence off PostgreSQL); 128+N a signal N ended the wait for the lock. (Full
table: man advlock.)

example (crontab):
  0 2 * * *  advlock run --db postgresql://batch@db1/sales --name daily_sales -- /opt/batch/daily_sales.sh
)";

const char *const kHoldHelp = R"(usage: advlock hold --db URL (--key KEY | --name NAME) [--for DURATION] [--wait DURATION] [--shared]

Take the lock and keep it until interrupted (Ctrl-C, SIGTERM) or for DURATION:
to pause a batch during maintenance, or to check that a job skips while the lock
is held. Exits 0 after releasing, 3 when the lock is held elsewhere, 75 when it
is lost.

  --db, --key, --name, --registry, --config   as for advlock run (--db local works too)
  --for DURATION                    release after DURATION (10m, 1h...)
  --wait DURATION                   wait up to DURATION for the lock
  --shared                          take it shared
)";

const char *const kStatusHelp = R"(usage: advlock status --db URL [--registry FILE] [--config FILE] [--key KEY | --name NAME [--slots N]] [--json]

Who holds or waits for which advisory lock in the database: lock name (from the
registry), key, mode, holds/waits, server pid, application, user, client, and
since when (connection start for holders, wait start for waiters). Read from
pg_locks and pg_stat_activity; never by taking a lock, so looking cannot make a
job skip. Details the role may not see are shown as hidden (grant it
pg_read_all_stats).

  --slots N  the lock's N job slots (advlock run --slots): each slot, its key
             and who holds it, or that it is free
  --json     one JSON object instead of the table: {"version": 1, "holders":
             [...], "note": null}; note says what the server could not show;
             with --slots also "slots": [{"slot", "key", "holders"}...]
)";

const char *const kKeyHelp = R"(usage: advlock key NAME [--scheme advlock|with_advisory_lock] [--prefix N] [--sql] [--slots N]
       advlock key --key KEY [--slots N]

The key a lock name turns into, where it appears in pg_locks, and the psql
expression that computes it (advlock scheme: the first 8 bytes of
SHA-256("advlock:" + NAME), big-endian, signed).

  --scheme with_advisory_lock   the Ruby gem's key: (crc32(NAME) & 0x7fffffff, prefix)
  --prefix N                    the gem's WITH_ADVISORY_LOCK_PREFIX (default 0)
  --sql                         print only the psql statement
  --slots N                     also the key of each of the N job slots
                                (advlock run --slots N) and its pg_locks place
  --key KEY                     a key (100:1, -42) instead of a name

A NAME that begins with '-' goes after "--": advlock key -- -nightly.
)";

const char *const kSqlHelp = R"(usage: advlock sql revoke|grant --role ROLE
       advlock sql ledger
       advlock sql fence

ledger: print the CREATE TABLE of the run ledger that advlock run --once-per
uses (run it once in the job's database: advlock sql ledger | psql URL).

fence: print the table and functions of the fencing tokens that advlock run
--fence issues and jobs check (once per database: advlock sql fence | psql URL).

revoke, grant: print REVOKE (or GRANT) EXECUTE statements for every advisory-lock function
signature (pg_advisory_lock, _shared, _xact, pg_try_*, pg_advisory_unlock*,
bigint and pair forms). To stop anyone with a login from squatting on your
job locks: advlock sql revoke --role PUBLIC, then advlock sql grant --role
your_batch_role. advlock's sessions need the pair-key functions too.
)";

const char *const kCheckHelp = R"(usage: advlock check REGISTRY

Validate a registry file and list its locks (name, key, description). Errors
say file:line and what to do; exit 78 when the file is invalid.
)";

}  // namespace

const std::vector<Command> &commands() {
    static const std::vector<Command> table = {
        {"run", "run a command while holding a lock (the cron wrapper)", kRunHelp, &run_command},
        {"hold", "hold a lock until interrupted", kHoldHelp, &hold_command},
        {"status", "who holds or waits for which lock", kStatusHelp, &status_command},
        {"key", "the key of a lock name, and its psql expression", kKeyHelp, &key_command},
        {"sql", "REVOKE/GRANT statements, the run ledger and fence tables", kSqlHelp, &sql_command},
        {"check", "validate a registry file", kCheckHelp, &check_command},
    };
    return table;
}

}  // namespace advlock::cli
