/* A libadvlock built without the MySQL backend (-DADVLOCK_WITH_MYSQL=OFF):
 * mysql:// and mariadb:// URLs are refused with ADVLOCK_EUNSUPPORTED and a
 * message saying how to get a build that has the backend (never quoting the
 * URL's password), and the backends that are there still work.
 *
 *   without_mysql LOCK_DIR     (LOCK_DIR: an empty directory of this user's) */
#include <advlock.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

static void expect_refused(const char *url) {
    advlock_session *session = NULL;
    const advlock_status status = advlock_session_open(&session, url, NULL);
    const char *message = advlock_error_last()->message;
    if (status != ADVLOCK_EUNSUPPORTED || session != NULL) {
        fprintf(stderr, "FAIL %s: status %s, want ADVLOCK_EUNSUPPORTED (%s)\n", url, advlock_status_name(status), message);
        ++failures;
        advlock_session_free(session);
        return;
    }
    if (!strstr(message, "-DADVLOCK_WITH_MYSQL=ON") || strstr(message, "Secret")) {
        fprintf(stderr, "FAIL %s: the message must say how to get the backend, without the password: %s\n", url, message);
        ++failures;
        return;
    }
    printf("ok: %s refused: %s\n", url, message);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: without_mysql LOCK_DIR\n");
        return 64;
    }
    expect_refused("mysql://batch:Secret@db1.example.com/sales");
    expect_refused("MariaDB://db1.example.com/sales");

    /* The local backend needs no server: open, lock, release. */
    char url[4096];
    snprintf(url, sizeof url, "local:%s", argv[1]);
    advlock_session *session = NULL;
    advlock_target target;
    advlock_lock *lock = NULL;
    if (advlock_session_open(&session, url, NULL) != ADVLOCK_OK ||
        advlock_target_from_name(&target, "without_mysql", ADVLOCK_NUL_TERMINATED) != ADVLOCK_OK ||
        advlock_session_try_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE) != ADVLOCK_OK ||
        advlock_lock_release(lock) != ADVLOCK_OK) {
        fprintf(stderr, "FAIL local backend: %s\n", advlock_error_last()->message);
        ++failures;
    } else {
        printf("ok: %s locked and released\n", url);
    }
    advlock_lock_free(lock);
    advlock_session_free(session);
    return failures == 0 ? 0 : 1;
}
