/* Derives a known key through the installed library. */
#include <advlock.h>
#include <stdio.h>

int main(void) {
    advlock_key key;
    if (advlock_key_from_name(&key, "daily_sales", ADVLOCK_NUL_TERMINATED) != ADVLOCK_OK) return 1;
    if (key.bigint != -671140887899735099LL) {
        fprintf(stderr, "consumer: wrong key %lld\n", (long long)key.bigint);
        return 1;
    }
    printf("consumer: advlock %s, daily_sales = %lld\n", advlock_version(), (long long)key.bigint);
    return 0;
}
