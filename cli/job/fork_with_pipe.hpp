// The way advlock starts the job's processes (the command, its guard): fork
// with a pipe from parent to child. The child is a copy of a process with
// other threads, so until it execs it may only make async-signal-safe calls,
// and none of advlock's signal handlers may run in it: it starts with every
// signal blocked, and sets up its own dispositions and mask.
#pragma once

#include <functional>
#include <sys/types.h>

namespace advlock::cli {

struct ForkedChild {
    pid_t pid;
    int write_end;  // advlock's end of the pipe, close-on-exec
};

// child_main gets the pipe's read end and must not return. Throws CliError
// (69) "cannot start <what>: ..." when the system refuses a pipe or a process.
ForkedChild fork_with_pipe(const char *what, const std::function<void(int read_end)> &child_main);

}  // namespace advlock::cli
