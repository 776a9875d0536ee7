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

/* Session#try_lock's fast path (lib/advlock/session.rb, take): the try, the
   Advlock::Lock around a grant and the look for an interrupt that came
   meanwhile, in one native call. Ruby takes a thread's interrupts only
   between instructions of Ruby code, and none runs here between the grant
   and the return, so this needs neither of handed_over's two
   Thread.handle_interrupt blocks nor Lock.new, which were most of the Ruby
   layer's cost in a try_lock + release cycle.
   Returns the Lock, nil when another owner holds the key, or false when
   Ruby wanted the thread back (nothing is held then: a grant is released)
   or the arguments are not what this path expects: the caller then takes
   the full path, which raises the interrupt under the caller's own masks,
   or the usual error. The Lock gets the instance variables Lock#initialize
   sets (lib/advlock/lock.rb). */
%{
/* An interrupt is waiting for the calling thread: a signal's trap, or an
   exception from Thread#raise, which the caller's Thread.handle_interrupt
   may be deferring (then only the queue shows it: Thread.pending_interrupt?,
   a C method, so no Ruby code runs). */
static bool advlock_interrupt_pending() {
    static const ID pending_id = rb_intern("pending_interrupt?");
    return rb_thread_interrupted(rb_thread_current()) || RTEST(rb_funcall(rb_cThread, pending_id, 0));
}

static VALUE advlock_try_lock_held(VALUE, VALUE session, VALUE native_session, VALUE key, VALUE shared,
                                   VALUE reentrant, VALUE lock_class) {
    static const ID native_id = rb_intern("@native"), session_id = rb_intern("@session"),
                    key_id = rb_intern("@key"), shared_id = rb_intern("@shared");
    void *session_pointer = nullptr, *key_pointer = nullptr;
    if (advlock_interrupt_pending() ||
        !SWIG_IsOK(advlock_convert(native_session, &session_pointer, SWIGTYPE_p_advlock_swig__Session)) ||
        !SWIG_IsOK(advlock_convert(rb_ivar_get(key, native_id), &key_pointer, SWIGTYPE_p_advlock_swig__Key)) ||
        !key_pointer) {
        return Qfalse;
    }
    auto *native = static_cast<advlock_swig::Session *>(session_pointer);
    const auto &native_key = *static_cast<const advlock_swig::Key *>(key_pointer);
    std::unique_ptr<advlock_swig::CancelToken> token =
        advlock_spare_token ? std::move(advlock_spare_token) : std::make_unique<advlock_swig::CancelToken>();
    advlock_swig::CancelToken *const cancel = token.get();
    advlock_swig::Lock *granted = nullptr;
    bool interrupted = false;
    try {
        interrupted = advlock_ruby::interrupted_without_gvl(
            [&]() { granted = native->acquire(native_key, RTEST(shared), 0, RTEST(reentrant), cancel, 0, false); },
            [cancel]() { cancel->cancel(); });
    } catch (const advlock::error &error) {
        token.reset(); /* before the raise, a longjmp past this frame */
        advlock_raise(static_cast<int>(error.status()), error.what(), error.sqlstate().c_str());
    } catch (const std::exception &error) {
        token.reset();
        advlock_raise(static_cast<int>(ADVLOCK_ERROR), error.what(), "");
    }
    if (interrupted) {
        delete granted; /* releases it; the token, cancelled, goes with this frame */
        return Qfalse;
    }
    advlock_spare_token = std::move(token);
    if (!granted) return Qnil;
    const VALUE native_lock = advlock_wrap_new(granted, SWIGTYPE_p_advlock_swig__Lock);
    const VALUE lock = rb_obj_alloc(lock_class);
    rb_ivar_set(lock, session_id, session);
    rb_ivar_set(lock, native_id, native_lock);
    rb_ivar_set(lock, key_id, key);
    rb_ivar_set(lock, shared_id, shared);
    if (advlock_interrupt_pending()) { /* a signal's trap, say: give it back */
        DATA_PTR(native_lock) = nullptr;
        delete granted;
        return Qfalse;
    }
    return lock;
}
%}
%init %{
    rb_define_module_function(mNative, "try_lock_held", VALUEFUNC(advlock_try_lock_held), 6);
%}

%include "advlock.i"
