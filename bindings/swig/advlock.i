/* advlock.i: the SWIG interface shared by the Java and Ruby bindings.
 *
 * It wraps advlock_swig.hpp (a SWIG-friendly restatement of advlock.hpp, over
 * the C ABI). Each language's own .i file includes this one after defining:
 *   - ADVLOCK_RAISE(status, message, sqlstate): raise that language's
 *     exception for an advlock::error, then leave the wrapper;
 *   - its renames (Java: lowerCamelCase) and any typemaps of its own.
 * Generated code is a build output, never committed.
 */
%{
#include "advlock_swig.hpp"
%}

%include <std_string.i>
%include <std_vector.i>
%include <stdint.i>

/* The wrapped classes are internal to each binding; its idiomatic layer uses them. */
%rename(NativeKey) advlock_swig::Key;
%rename(NativeRegistry) advlock_swig::Registry;
%rename(NativeRegistryEntry) advlock_swig::RegistryEntry;
%rename(NativeHolder) advlock_swig::Holder;
%rename(NativeHolderList) advlock_swig::HolderList;
%rename(NativeLock) advlock_swig::Lock;
%rename(NativeLockSet) advlock_swig::LockSet;
%rename(NativeSession) advlock_swig::Session;
%rename(NativeSessionOptions) advlock_swig::SessionOptions;
%rename(NativeCancelToken) advlock_swig::CancelToken;
%rename(NativeStatusInfo) advlock_swig::StatusInfo;

/* Every wrapped call: advlock::error becomes the language's exception with
   the status and SQLSTATE; anything else is an internal error. */
%exception {
    try {
        $action
    } catch (const advlock::error &error) {
        advlock_raise(ADVLOCK_RAISE_CONTEXT static_cast<int>(error.status()), error.what(), error.sqlstate().c_str());
        ADVLOCK_LEAVE
    } catch (const std::exception &error) {
        advlock_raise(ADVLOCK_RAISE_CONTEXT static_cast<int>(ADVLOCK_ERROR), error.what(), "");
        ADVLOCK_LEAVE
    }
}

/* Objects returned by pointer from these are new: the proxy owns them. */
%newobject advlock_swig::Session::open;
%newobject advlock_swig::Session::try_lock;
%newobject advlock_swig::Session::lock;
%newobject advlock_swig::Session::acquire;
%newobject advlock_swig::Session::acquire_as;
%newobject advlock_swig::Session::acquire_all;
%newobject advlock_swig::Registry::open;
%newobject advlock_swig::Registry::parse;

/* Only what the idiomatic layers use; the native() accessors and
   constructors taking advlock.hpp types stay C++-only. */
%ignore advlock_swig::Key::native;
%ignore advlock_swig::Key::Key();
%ignore advlock_swig::Key::Key(const advlock::key &);
/* A key of one's own from one a holder row or registry entry lends (a copy
   keeps the target's name): NativeKey(other). */
%copyctor advlock_swig::Key;
%ignore advlock_swig::Registry::native;
%ignore advlock_swig::Lock::Lock;
%ignore advlock_swig::LockSet::LockSet;
%ignore advlock_swig::CancelToken::native;

namespace std {
%template(HolderVector) vector<advlock_swig::Holder>;
%template(StatusInfoVector) vector<advlock_swig::StatusInfo>;
%template(KeyVector) vector<advlock_swig::Key>;
}

%include "advlock_swig.hpp"
