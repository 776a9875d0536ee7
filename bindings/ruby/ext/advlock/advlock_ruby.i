/* advlock_ruby.i: the Ruby side of bindings/swig/advlock.i. The generated
 * module is Advlock::Native (internal); lib/advlock/*.rb is the API users
 * call (Advlock.connect, Session#with_lock, Advlock::Error...).
 *
 * Calls that may wait on the network run without the GVL, so other Ruby
 * threads go on; a wait is interrupted (Thread#raise, Thread#kill, Ctrl-C,
 * Timeout) by cancelling it, and a lock granted meanwhile is given back
 * before Ruby raises (advlock_ruby_wait.hpp). */
%module(package="advlock") "advlock::native"

%{
#include <ruby.h>
#include <ruby/thread.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "advlock_swig.hpp"
#include "advlock_ruby_wait.hpp"

/* Raises Advlock::Error.for_status(status, message, sqlstate): the Ruby side
   picks the class, so the mapping lives in one place. */
static void advlock_raise(int status, const char *message, const char *sqlstate) {
    VALUE module = rb_const_get(rb_cObject, rb_intern("Advlock"));
    VALUE error_class = rb_const_get(module, rb_intern("Error"));
    VALUE error = rb_funcall(error_class, rb_intern("for_status"), 3, INT2NUM(status),
                             rb_utf8_str_new_cstr(message), rb_utf8_str_new_cstr(sqlstate));
    rb_exc_raise(error);
}

static void advlock_without_gvl(std::function<void()> body) {
    advlock_ruby::native_call call;
    call.body = std::move(body);
    rb_thread_call_without_gvl(advlock_ruby::run_native_call, &call, RUBY_UBF_IO, nullptr);
    if (call.failure) std::rethrow_exception(call.failure);
}

/* The calling thread's unused cancel token, for its next acquire (below). */
static thread_local std::unique_ptr<advlock_swig::CancelToken> advlock_spare_token;

/* What is left of a wait of timeout_ms (-1: no end) begun at start, for a wait resumed. */
static std::int64_t advlock_time_left(std::int64_t timeout_ms, std::chrono::steady_clock::time_point start) {
    if (timeout_ms < 0) return timeout_ms;
    const auto spent = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    return spent.count() >= timeout_ms ? 0 : timeout_ms - spent.count();
}
%}

/* The wrapped objects a try_lock + release cycle passes (the session, the
   key, the lock), converted without SWIG_ConvertPtr's look at the object's
   @__swigtype__ (an rb_iv_get, with an rb_intern of the name, per argument):
   an object of the wrapped class itself needs no such check. These classes
   are internal (Advlock::Native), so nothing subclasses them; anything else
   goes through SWIG_ConvertPtr as before. */
%{
static int advlock_convert(VALUE object, void **pointer, swig_type_info *type) {
    const auto *wrapped = static_cast<const swig_class *>(type->clientdata);
    if (wrapped && !SPECIAL_CONST_P(object) && BUILTIN_TYPE(object) == T_DATA && !RTYPEDDATA_P(object) &&
        rb_obj_class(object) == wrapped->klass) {
        *pointer = DATA_PTR(object);
        return *pointer ? SWIG_OK : SWIG_ObjectPreviouslyDeletedError;
    }
    return SWIG_ConvertPtr(object, pointer, type, 0);
}
%}
%typemap(in) advlock_swig::Session *self, advlock_swig::Lock *self, const advlock_swig::Lock *self,
             advlock_swig::LockSet *self, const advlock_swig::LockSet *self {
    void *argp = nullptr;
    const int res = advlock_convert($input, &argp, $descriptor);
    if (!SWIG_IsOK(res)) {
        SWIG_exception_fail(SWIG_ArgError(res), Ruby_Format_TypeError("", "$type", "$symname", $argnum, $input));
    }
    $1 = reinterpret_cast<$ltype>(argp);
}
%typemap(in) const advlock_swig::Key & {
    void *argp = nullptr;
    const int res = advlock_convert($input, &argp, $descriptor);
    if (!SWIG_IsOK(res)) {
        SWIG_exception_fail(SWIG_ArgError(res), Ruby_Format_TypeError("", "$type", "$symname", $argnum, $input));
    }
    if (!argp) {
        SWIG_exception_fail(SWIG_ValueError,
                            Ruby_Format_TypeError("invalid null reference ", "$type", "$symname", $argnum, $input));
    }
    $1 = reinterpret_cast<$ltype>(argp);
}

/* And the other way: a new Lock or LockSet becomes its Ruby object without
   SWIG_NewPointerObj's @__swigtype__, an rb_iv_set of a new String on every
   object, which Ruby keeps in its table of C objects' instance variables
   until the object is collected: one per try_lock. Nothing reads it for
   these classes: the conversions above and SWIG_ConvertPtr check the class
   first. Every function returning one is a %newobject (advlock.i), so Ruby
   owns what it wraps and frees it with the class's destroy function. */
%{
static VALUE advlock_wrap_new(void *pointer, swig_type_info *type) {
    const auto *wrapped = static_cast<const swig_class *>(type->clientdata);
    if (!pointer) return Qnil;
    if (!wrapped) return SWIG_NewPointerObj(pointer, type, SWIG_POINTER_OWN);
    return Data_Wrap_Struct(wrapped->klass, VOIDFUNC(wrapped->mark), VOIDFUNC(wrapped->destroy), pointer);
}
%}
%typemap(out) advlock_swig::Lock *, advlock_swig::LockSet * {
    $result = advlock_wrap_new($1, $descriptor);
}

/* Ruby waits for a loss with IO.select on loss_fd (lib/advlock/session.rb),
   never in a native call holding a thread: see watch_for_loss there. */
%ignore advlock_swig::Session::wait_until_lost;

#define ADVLOCK_RAISE_CONTEXT
%define ADVLOCK_LEAVE
%enddef

%define ADVLOCK_CATCH
    catch (const advlock::error &error) {
        advlock_raise(static_cast<int>(error.status()), error.what(), error.sqlstate().c_str());
    } catch (const std::exception &error) {
        advlock_raise(static_cast<int>(ADVLOCK_ERROR), error.what(), "");
    }
%enddef

/* These wait on the network without a result to give back: run them without
   the GVL; Ruby raises a pending interrupt when they return. */
%define ADVLOCK_NOGVL(method)
%exception method {
    try {
        advlock_without_gvl([&]() { $action });
    } ADVLOCK_CATCH
}
%enddef
ADVLOCK_NOGVL(advlock_swig::Session::verify)
ADVLOCK_NOGVL(advlock_swig::Session::holders)
ADVLOCK_NOGVL(advlock_swig::Session::close)
ADVLOCK_NOGVL(advlock_swig::Lock::release)
ADVLOCK_NOGVL(advlock_swig::Lock::verify)
ADVLOCK_NOGVL(advlock_swig::LockSet::release)
ADVLOCK_NOGVL(advlock_swig::LockSet::verify)

/* These return a new session or lock. When Ruby wants the thread back
   meanwhile, what they returned is given back (a granted lock released, a
   session closed) before the interrupt is raised; an interruption that raises
   nothing (Thread#wakeup, a trap handler that returns) runs them again. */
%define ADVLOCK_NOGVL_NEW(method, cancel)
%exception method {
    for (;;) {
        bool advlock_interrupted = false;
        try {
            advlock_interrupted = advlock_ruby::interrupted_without_gvl([&]() { $action }, cancel);
        } ADVLOCK_CATCH
        if (!advlock_interrupted) break;
        delete result;
        result = nullptr;
        rb_thread_check_ints();
    }
}
%enddef
ADVLOCK_NOGVL_NEW(advlock_swig::Session::open, nullptr)
ADVLOCK_NOGVL_NEW(advlock_swig::Session::try_lock, nullptr)

/* A wait for a lock is cancelled when Ruby wants the thread back, and
   resumed, for the time left, when the interruption raises nothing. */
%exception advlock_swig::Session::lock {
    const auto advlock_start = std::chrono::steady_clock::now();
    const std::int64_t advlock_timeout_ms = arg4;
    for (;;) {
        bool advlock_interrupted = false;
        try {
            advlock_interrupted = advlock_ruby::interrupted_without_gvl([&]() { $action },
                                                                        [arg1]() { arg1->cancel_quietly(); });
        } ADVLOCK_CATCH
        if (!advlock_interrupted) break;
        delete result;
        result = nullptr;
        rb_thread_check_ints();
        arg4 = advlock_time_left(advlock_timeout_ms, advlock_start);
    }
}

/* acquire and acquire_all: the same, with a cancel token of its own for each
   wait when the caller gives none, so that Ruby taking one thread back ends
   that thread's wait only (other threads may be waiting on the same session).
   A token no one cancelled serves the thread's next wait
   (advlock_spare_token): a try_lock then allocates none. Both take the
   timeout as arg4 and the cancel token as arg6; a lock or set granted
   meanwhile is deleted, which releases it. */
%define ADVLOCK_NOGVL_ACQUIRE(method)
%exception method {
    const auto advlock_start = std::chrono::steady_clock::now();
    const std::int64_t advlock_timeout_ms = arg4;
    const advlock_swig::CancelToken *const advlock_given = arg6;
    for (;;) {
        bool advlock_interrupted = false;
        std::unique_ptr<advlock_swig::CancelToken> advlock_own;
        if (!advlock_given) advlock_own = advlock_spare_token ? std::move(advlock_spare_token)
                                                              : std::make_unique<advlock_swig::CancelToken>();
        advlock_swig::CancelToken *advlock_token =
            advlock_own ? advlock_own.get() : const_cast<advlock_swig::CancelToken *>(advlock_given);
        arg6 = advlock_token;
        try {
            advlock_interrupted = advlock_ruby::interrupted_without_gvl([&]() { $action },
                                                                        [advlock_token]() { advlock_token->cancel(); });
        } catch (const advlock::error &error) {
            advlock_own.reset(); /* before the raise, a longjmp past this frame */
            advlock_raise(static_cast<int>(error.status()), error.what(), error.sqlstate().c_str());
        } catch (const std::exception &error) {
            advlock_own.reset();
            advlock_raise(static_cast<int>(ADVLOCK_ERROR), error.what(), "");
        }
        if (!advlock_interrupted) {
            /* Only an interruption cancels a token of ours: this one is as new. */
            if (advlock_own) advlock_spare_token = std::move(advlock_own);
            break;
        }
        advlock_own.reset(); /* cancelled, and so for good */
        delete result;
        result = nullptr;
        rb_thread_check_ints();
        arg4 = advlock_time_left(advlock_timeout_ms, advlock_start);
    }
}
%enddef
ADVLOCK_NOGVL_ACQUIRE(advlock_swig::Session::acquire)
/* Its keys come as a Native::KeyVector that Ruby owns (lib/advlock/session.rb),
   so this frame allocates nothing that a raise (a longjmp) would leak. */
ADVLOCK_NOGVL_ACQUIRE(advlock_swig::Session::acquire_all)

%include "advlock.i"
