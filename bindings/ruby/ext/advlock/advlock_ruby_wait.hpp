// Native calls without the GVL, for advlock_ruby.i, so that Ruby can take
// the thread back (Thread#raise, Thread#kill, Ctrl-C, Timeout) and no lock is
// left behind when it does.
//
// rb_thread_call_without_gvl would raise a pending interrupt as soon as the
// call returns, before the wrapper has turned a granted lock into a Ruby
// object: the lock would stay held with no handle. So these use
// rb_thread_call_without_gvl2 (which raises nothing) and tell the wrapper
// whether Ruby wanted the thread back; the wrapper then gives back what the
// call returned and raises with rb_thread_check_ints(), outside any C++
// frame (a raise is a longjmp).
#pragma once

#include <ruby.h>
#include <ruby/thread.h>

#include <atomic>
#include <exception>
#include <functional>
#include <utility>

namespace advlock_ruby {

struct native_call {
    std::function<void()> body;
    std::function<void()> cancel;  // ends body's wait; called from another thread; must not throw
    std::exception_ptr failure;
    bool ran = false;
    std::atomic<bool> interrupted{false};
};

inline void *run_native_call(void *data) {
    auto *call = static_cast<native_call *>(data);
    call->ran = true;
    try {
        call->body();
    } catch (...) {
        call->failure = std::current_exception();
    }
    return nullptr;
}

// Ruby's unblocking function: Ruby wants the thread back.
inline void interrupt_native_call(void *data) {
    auto *call = static_cast<native_call *>(data);
    call->interrupted = true;
    if (call->cancel) call->cancel();
}

// Runs body without the GVL; cancel (may be empty) ends its wait when Ruby
// wants the thread back. True when Ruby did (or had before body could start):
// the caller gives back what body produced and calls rb_thread_check_ints();
// body's failure (the cancellation's) is dropped then. Else rethrows body's failure.
inline bool interrupted_without_gvl(std::function<void()> body, std::function<void()> cancel) {
    native_call call;
    call.body = std::move(body);
    call.cancel = std::move(cancel);
    rb_thread_call_without_gvl2(run_native_call, &call, interrupt_native_call, &call);
    if (!call.ran || call.interrupted) return true;
    if (call.failure) std::rethrow_exception(call.failure);
    return false;
}

}  // namespace advlock_ruby
