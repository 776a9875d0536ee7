// Compiled as C++17 with -pedantic-errors -Wold-style-cast -Werror: both
// headers must be clean C++ too.
#include <advlock.h>
#include <advlock.hpp>

#include <cstdio>

int main() {
    const advlock::key key = advlock::key::parse("100:1");
    if (key != advlock::key::pair(100, 1)) {
        std::fprintf(stderr, "advlock::key::parse from C++ gave %s\n", key.to_string().c_str());
        return 1;
    }
    advlock_key named;
    if (advlock_key_from_name(&named, "daily_sales", ADVLOCK_NUL_TERMINATED) != ADVLOCK_OK) return 1;
    std::printf("advlock %s from C++: %s\n", advlock_version(), key.to_string().c_str());
    return 0;
}
