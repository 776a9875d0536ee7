/* Interop contender in plain C over advlock.h (tests/interop/interop.py runs
 * it), the way the README's C example locks: a target from the lock's name,
 * so MySQL/MariaDB lock the name itself as every other language does.
 *   interop_c_contender keys SPEC...
 *   interop_c_contender contend URL SPEC LOG ROUNDS HOLD_MS
 * SPEC is "name:TEXT" or "pair:K1:K2" (contender.py's protocol). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "advlock.h"

static int target_of(advlock_target *out, const char *spec) {
    if (strncmp(spec, "name:", 5) == 0) return advlock_target_from_name(out, spec + 5, ADVLOCK_NUL_TERMINATED);
    if (strncmp(spec, "pair:", 5) == 0) {
        const char *second = strchr(spec + 5, ':');
        if (!second) return ADVLOCK_EINVAL;
        *out = advlock_target_of_key(advlock_key_pair(atoi(spec + 5), atoi(second + 1)));
        return ADVLOCK_OK;
    }
    return ADVLOCK_EINVAL;
}

static long long now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int fail(const char *what) {
    fprintf(stderr, "interop_c_contender: %s: %s\n", what, advlock_error_last()->message);
    return 1;
}

int main(int argc, char **argv) {
    advlock_target target;
    if (argc >= 2 && strcmp(argv[1], "keys") == 0) {
        for (int i = 2; i < argc; ++i) {
            char text[ADVLOCK_KEY_TEXT_SIZE];
            if (target_of(&target, argv[i]) != ADVLOCK_OK) return fail(argv[i]);
            if (advlock_key_format(text, sizeof text, &target.key) != ADVLOCK_OK) return fail("format");
            printf("%s\t%s\n", argv[i], text);
        }
        return 0;
    }
    if (argc < 7 || strcmp(argv[1], "contend") != 0) return 64;
    if (target_of(&target, argv[3]) != ADVLOCK_OK) return fail(argv[3]);
    advlock_session_options options = ADVLOCK_SESSION_OPTIONS_INIT;
    options.application_name = "interop-c";
    advlock_session *session = NULL;
    if (advlock_session_open(&session, argv[2], &options) != ADVLOCK_OK) return fail("open");
    FILE *log = fopen(argv[4], "a");
    if (!log) return 1;
    const int rounds = atoi(argv[5]), hold_ms = atoi(argv[6]);
    int status = 0;
    for (int i = 0; i < rounds && status == 0; ++i) {
        advlock_lock *lock = NULL;
        if (advlock_session_lock(&lock, session, &target, ADVLOCK_EXCLUSIVE, ADVLOCK_WAIT_FOREVER) != ADVLOCK_OK) {
            status = fail("lock");
            break;
        }
        fprintf(log, "E %lld c %d\n", now_ns(), (int)getpid());
        fflush(log);
        const struct timespec hold = {hold_ms / 1000, (long)(hold_ms % 1000) * 1000000L};
        nanosleep(&hold, NULL);
        fprintf(log, "X %lld c %d\n", now_ns(), (int)getpid());
        fflush(log);
        if (advlock_lock_release(lock) != ADVLOCK_OK) status = fail("release");
        advlock_lock_free(lock);
    }
    fclose(log);
    advlock_session_free(session);
    return status;
}
