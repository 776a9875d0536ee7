// The processes below advlock, read from /proc. advlock makes itself a
// "child subreaper" (PR_SET_CHILD_SUBREAPER) while it runs a job, so every
// process the job starts stays below it even when its own parent exits: a
// grandchild left behind by a wrapper script is re-parented to advlock, not
// to init. "No children" then means "nothing of the job is left".
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace advlock::cli {

// Makes advlock the subreaper of everything it starts. false when the kernel refused.
bool become_subreaper();

// The direct children of process pid (every thread's).
std::vector<pid_t> children_of(pid_t pid);

// Every process below pid, parents before their children.
std::vector<pid_t> descendants_of(pid_t pid);

// "1234 java" for messages; just the number when the process is gone.
std::string describe_process(pid_t pid);

}  // namespace advlock::cli
