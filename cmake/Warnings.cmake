# advlock_warnings: the warning flags every target of the project compiles with.
add_library(advlock_warnings INTERFACE)
target_compile_options(advlock_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                       -Wno-sign-conversion -Werror=return-type)
