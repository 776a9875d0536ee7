// Takes the job down when advlock dies. The lock lives on advlock's database
// connection (or its flock descriptor), so the moment advlock dies, whatever
// the cause (kill -9, the OOM killer, a systemd timeout, a crash), the server
// frees the lock and the next copy of the job may start. A job left running
// would then run unprotected next to it: it must die with advlock, at once.
//
// The kernel can do this only for advlock's direct child (PR_SET_PDEATHSIG,
// which supervised_job.cpp sets too), not for the grandchildren of a wrapper
// script. So advlock forks a guard: a small process that joins the job's
// process group, ignores every signal it can, and blocks reading a pipe whose
// only writer is advlock. When advlock dies the kernel closes that pipe, the
// read returns end-of-file, and the guard sends SIGKILL to the whole process
// group, itself included. When the job has ended, advlock dismisses the guard
// with one byte, and it exits without killing anything. Being a member of the
// group, the guard also keeps the group's id from being reused while the job
// runs, so the kill can never reach an unrelated group.
#pragma once

#include <sys/types.h>

namespace advlock::cli {

class DeathGuard {
public:
    // The guard's exit code when the job's process group was already gone.
    static constexpr int kFoundNoGroup = 3;

    DeathGuard() = default;
    ~DeathGuard();
    DeathGuard(const DeathGuard &) = delete;
    DeathGuard &operator=(const DeathGuard &) = delete;

    // Forks a guard into the process group job_group. Throws CliError (69)
    // when the system refuses a pipe or a process.
    void start(pid_t job_group);

    // The guard's pid (-1: none running).
    pid_t pid() const { return pid_; }

    // The guard died (it was reaped elsewhere): with replace, start another
    // one for the same group (the job still runs); else just forget it (the
    // whole group was killed).
    void died(bool replace);

    // The job has ended: the guard exits without killing; reaps it.
    void dismiss();

private:
    pid_t group_ = -1;
    pid_t pid_ = -1;
    int pipe_ = -1;  // advlock's end: never written until dismiss
};

}  // namespace advlock::cli
