# Preloaded with `cmake -C` by the scripts that build trees only to test them
# (scripts/test-all.sh's ASan and TSan trees, interop-build.sh, fuzz.sh): the
# RelWithDebInfo flags with line tables only (-g1) instead of full debug
# information (-g). Sanitizer and libFuzzer reports still name the function,
# file and line of every frame; what goes is what only a debugger reads
# (variables, types), which CI never runs, and it was about a quarter of the
# compile time. The optimisation level is RelWithDebInfo's own (-O2).
# FORCE: an existing tree configured with -g switches too.
set(CMAKE_C_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "line tables only: the test trees" FORCE)
set(CMAKE_CXX_FLAGS_RELWITHDEBINFO "-O2 -g1 -DNDEBUG" CACHE STRING "line tables only: the test trees" FORCE)
