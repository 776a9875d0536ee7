/* Compiled as strict C99 with -pedantic-errors -Werror: advlock.h must be plain C. */
#include <advlock.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    advlock_key key = advlock_key_pair(100, 1);
    char text[ADVLOCK_KEY_TEXT_SIZE];
    if (advlock_key_format(text, sizeof text, &key) != ADVLOCK_OK || strcmp(text, "100:1") != 0) {
        fprintf(stderr, "advlock_key_format from C99 gave '%s'\n", text);
        return 1;
    }
    printf("advlock %s from C99: %s\n", advlock_version(), text);
    return 0;
}
