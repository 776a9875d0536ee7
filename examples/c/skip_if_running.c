#include <advlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* skip_if_running URL [SECONDS]: run the daily_sales job unless it already runs on some host. */
int main(int argc, char **argv) {
    advlock_session *session = NULL;
    advlock_lock *lock = NULL;
    advlock_target job; /* the name and its key: MySQL locks the name, PostgreSQL the key */
    advlock_status st = advlock_target_from_name(&job, "daily_sales", ADVLOCK_NUL_TERMINATED);
    if (st == ADVLOCK_OK) st = advlock_session_open(&session, argc > 1 ? argv[1] : "", NULL);
    if (st == ADVLOCK_OK) st = advlock_session_try_lock(&lock, session, &job, ADVLOCK_EXCLUSIVE);
    if (st == ADVLOCK_OK) {
        printf("daily_sales: holding the lock, working\n");
        fflush(stdout);
        sleep(argc > 2 ? (unsigned)atoi(argv[2]) : 1); /* the job's real work goes here */
        st = advlock_lock_release(lock);               /* ADVLOCK_ELOST if the lock was lost */
    } else if (st == ADVLOCK_NOT_ACQUIRED) {
        printf("daily_sales: already running elsewhere, skipping\n");
    }
    if (st < 0) fprintf(stderr, "advlock: %s\n", advlock_error_last()->message);
    advlock_lock_free(lock);
    advlock_session_free(session);
    return st == ADVLOCK_OK ? 0 : st == ADVLOCK_NOT_ACQUIRED ? 3 : 1;
}
