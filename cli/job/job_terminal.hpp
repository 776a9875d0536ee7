// The terminal, when advlock was started in its foreground (typed at a shell
// prompt). The job runs in a process group of its own (so that advlock can
// stop all of it), which a terminal would treat as a background job: reading
// from the terminal would stop it, and Ctrl-C would reach only advlock. So
// advlock hands the terminal's foreground to the job's group, as a shell does,
// takes it back when the job stops (Ctrl-Z: advlock then stops too, so the
// shell sees its job stopped) or ends, and hands it over again on `fg`.
// Under cron there is no terminal and none of this happens.
#pragma once

#include <sys/types.h>

namespace advlock::cli {

class JobTerminal {
public:
    // Finds a terminal on stdin, stdout or stderr whose foreground is advlock's group.
    JobTerminal();
    bool active() const { return fd_ >= 0; }

    // Gives the foreground to the job's group (no effect when inactive).
    void give_to(pid_t group);
    // Takes the foreground back for advlock's group, if the job's group has it.
    void take_back();
    // The job stopped (Ctrl-Z): stop advlock too; once continued, resume the
    // job, in the foreground again if advlock is.
    void job_stopped();

private:
    int fd_ = -1;
    pid_t group_ = -1;
};

}  // namespace advlock::cli
