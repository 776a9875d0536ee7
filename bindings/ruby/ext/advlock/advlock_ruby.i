/* advlock_ruby.i: the Ruby side of bindings/swig/advlock.i. The generated
 * module is Advlock::Native (internal); lib/advlock/*.rb is the API users
 * call (Advlock.connect, Session#with_lock, Advlock::Error...).
 *
 * Calls that may wait on the network run without the GVL, so other Ruby
 * threads go on; a wait is interrupted (Thread#raise, Ctrl-C, Timeout) by
 * cancelling it on the server. */
%module(package="advlock") "advlock::native"

%{
#include <ruby.h>
#include <ruby/thread.h>
#include <exception>
#include <functional>
#include <string>

#include "advlock_swig.hpp"

/* Raises Advlock::Error.for_status(status, message, sqlstate): the Ruby side
   picks the class, so the mapping lives in one place. */
static void advlock_raise(int status, const char *message, const char *sqlstate) {
    VALUE module = rb_const_get(rb_cObject, rb_intern("Advlock"));
    VALUE error_class = rb_const_get(module, rb_intern("Error"));
    VALUE error = rb_funcall(error_class, rb_intern("for_status"), 3, INT2NUM(status),
                             rb_utf8_str_new_cstr(message), rb_utf8_str_new_cstr(sqlstate));
    rb_exc_raise(error);
}

/* Runs a call without the GVL. unblock (may be NULL) interrupts it when Ruby
   needs the thread back (Thread#raise, a signal). */
struct advlock_nogvl_call {
    std::function<void()> body;
    std::exception_ptr failure;
};

static void *advlock_nogvl_run(void *data) {
    auto *call = static_cast<advlock_nogvl_call *>(data);
    try {
        call->body();
    } catch (...) {
        call->failure = std::current_exception();
    }
    return nullptr;
}

/* Unblocking functions: how Ruby gets a thread back from a native wait. */
static void advlock_cancel_wait(void *session) {
    static_cast<advlock_swig::Session *>(session)->cancel_quietly();
}
static void advlock_stop_watching(void *session) {
    static_cast<advlock_swig::Session *>(session)->stop_waiting_until_lost();
}

static void advlock_without_gvl(std::function<void()> body, rb_unblock_function_t *unblock, void *session) {
    advlock_nogvl_call call{std::move(body), nullptr};
    rb_thread_call_without_gvl(advlock_nogvl_run, &call, unblock, session);
    if (call.failure) std::rethrow_exception(call.failure);
}
%}

#define ADVLOCK_RAISE_CONTEXT
%define ADVLOCK_LEAVE
%enddef

/* These wait on the network: run them without the GVL. The session's own
   waits are cancelled on the server when Ruby interrupts the thread. */
%define ADVLOCK_NOGVL(method, unblock, session)
%exception method {
    try {
        advlock_without_gvl([&]() { $action }, unblock, session);
    } catch (const advlock::error &error) {
        advlock_raise(static_cast<int>(error.status()), error.what(), error.sqlstate().c_str());
    } catch (const std::exception &error) {
        advlock_raise(static_cast<int>(ADVLOCK_ERROR), error.what(), "");
    }
}
%enddef
ADVLOCK_NOGVL(advlock_swig::Session::open, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Session::try_lock, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Session::lock, advlock_cancel_wait, arg1)
ADVLOCK_NOGVL(advlock_swig::Session::verify, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Session::holders, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Session::close, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Session::wait_until_lost, advlock_stop_watching, arg1)
ADVLOCK_NOGVL(advlock_swig::Lock::release, RUBY_UBF_IO, nullptr)
ADVLOCK_NOGVL(advlock_swig::Lock::verify, RUBY_UBF_IO, nullptr)

%include "advlock.i"
