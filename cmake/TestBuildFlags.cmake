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

# The test programs' own code (gtest cases, fixtures, helpers: every target
# linking advlock_test_support, tests/CMakeLists.txt) is compiled at -O0. With
# ASan+UBSan, -O2 made a test file take 3.3× as long to compile (cli_test.cpp:
# 70 s against 21 s) and the test files were 1100 of the ASan tree's 1430 CPU
# seconds, the largest part of CI. The library, the C ABI and the advlock command
# under test stay at -O2, the level users run, so the sanitizers still check
# optimised code where it matters; a test body mostly waits on a server.
set(ADVLOCK_TEST_PROGRAM_FLAGS "-O0" CACHE STRING "extra flags for the test programs' own code" FORCE)
