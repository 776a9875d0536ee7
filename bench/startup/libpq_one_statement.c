/* The floor of a PostgreSQL lock client's start-up, for bench/startup/startup.py:
   a C program linked to libpq that connects, takes one advisory lock in one
   statement and exits (the server frees the lock with the session). No
   checks, no watchdog, no job: what any client taking a lock pays at least.

     advlock_startup_libpq URL */
#include <libpq-fe.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fputs("usage: advlock_startup_libpq URL\n", stderr);
        return 2;
    }
    PGconn *connection = PQconnectdb(argv[1]);
    int status = 1;
    if (PQstatus(connection) == CONNECTION_OK) {
        PGresult *result = PQexec(connection, "SELECT pg_try_advisory_lock(1)");
        status = PQresultStatus(result) == PGRES_TUPLES_OK ? 0 : 1;
        PQclear(result);
    }
    if (status != 0) {
        fprintf(stderr, "advlock_startup_libpq: %s", PQerrorMessage(connection));
    }
    PQfinish(connection);
    return status;
}
