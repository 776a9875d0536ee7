// What advlock inherited from whoever started it, so the job gets exactly
// that back, as if advlock had exec'd it directly:
//  - the signals it was told to ignore (`nohup advlock run ...` ignores
//    SIGHUP: the job must too, as POSIX exec keeps ignored signals ignored),
//  - its signal mask,
//  - the file descriptors it was given (a wrapper's `3>file` reaches the job;
//    the ones advlock opened itself, a database socket, a lock file, do not).
#pragma once

namespace advlock::cli {

// Records it all. Call first thing in main, before anything changes a
// signal's disposition or opens a file.
void capture_inherited_state();

// Whether signal was ignored when advlock started.
bool inherited_ignored(int signal);

// Marks every descriptor advlock opened since capture_inherited_state() as
// close-on-exec, so no child inherits them. Call before forking a job.
void close_own_descriptors_on_exec();

// In a child after fork, before exec: the inherited dispositions (ignored
// stays ignored, every other signal back to its default) and mask.
// Async-signal-safe.
void restore_inherited_signals();

}  // namespace advlock::cli
