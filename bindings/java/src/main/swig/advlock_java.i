/* advlock_java.i: the Java side of bindings/swig/advlock.i. The generated
 * classes go to io.advlock.internal; users call io.advlock (LockSession, Lock,
 * Key, TransactionLocks...), which is written by hand. */
%module(package="io.advlock.internal") AdvlockNative

%{
#include <jni.h>
#include <cstring>
#include <string>

/* Strings cross as UTF-8 bytes: JNI's own string functions speak "modified
   UTF-8", which garbles characters outside the BMP (emoji in a lock name). */
static jbyteArray advlock_java_bytes(JNIEnv *jenv, const char *text, size_t length) {
    jbyteArray bytes = jenv->NewByteArray(static_cast<jsize>(length));
    if (bytes) jenv->SetByteArrayRegion(bytes, 0, static_cast<jsize>(length), reinterpret_cast<const jbyte *>(text));
    return bytes;
}

static bool advlock_java_string(JNIEnv *jenv, jbyteArray bytes, std::string &out) {
    if (!bytes) {
        SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "advlock: a string argument is null");
        return false;
    }
    out.resize(static_cast<size_t>(jenv->GetArrayLength(bytes)));
    if (!out.empty()) jenv->GetByteArrayRegion(bytes, 0, static_cast<jsize>(out.size()), reinterpret_cast<jbyte *>(&out[0]));
    return true;
}

/* Throws io.advlock.AdvlockException.create(status, message, sqlstate):
   the Java side picks the subclass, so the mapping lives in one place. */
static void advlock_raise(JNIEnv *jenv, int status, const char *message, const char *sqlstate) {
    jclass type = jenv->FindClass("io/advlock/AdvlockException");
    if (!type) return;  /* NoClassDefFoundError is pending */
    jmethodID create = jenv->GetStaticMethodID(type, "create", "(I[B[B)Lio/advlock/AdvlockException;");
    if (!create) return;
    jbyteArray text = advlock_java_bytes(jenv, message, std::strlen(message));
    jbyteArray state = advlock_java_bytes(jenv, sqlstate, std::strlen(sqlstate));
    jobject error = jenv->CallStaticObjectMethod(type, create, static_cast<jint>(status), text, state);
    if (error && !jenv->ExceptionCheck()) jenv->Throw(static_cast<jthrowable>(error));
}
%}

#define ADVLOCK_RAISE_CONTEXT jenv,
%define ADVLOCK_LEAVE
return $null;
%enddef

%include <std_string.i>
%typemap(jni) std::string, const std::string & "jbyteArray"
%typemap(jtype) std::string, const std::string & "byte[]"
%typemap(jstype) std::string, const std::string & "String"
%typemap(javain) std::string, const std::string & "$javainput == null ? null : $javainput.getBytes(java.nio.charset.StandardCharsets.UTF_8)"
%typemap(javaout) std::string, const std::string & {
    return new String($jnicall, java.nio.charset.StandardCharsets.UTF_8);
  }
%typemap(in) std::string %{ if (!advlock_java_string(jenv, $input, $1)) return $null; %}
%typemap(in) const std::string & (std::string text) %{
  if (!advlock_java_string(jenv, $input, text)) return $null;
  $1 = &text;
%}
%typemap(out) std::string %{ $result = advlock_java_bytes(jenv, $1.data(), $1.size()); %}
%typemap(out) const std::string & %{ $result = advlock_java_bytes(jenv, $1->data(), $1->size()); %}

/* lowerCamelCase methods, as Java code expects. */
%rename("%(lowercamelcase)s", %$isfunction) "";

/* The loader runs before any native method. */
%pragma(java) jniclasscode=%{
  static {
    NativeLibrary.load();
  }
%}

/* One lock and a set of locks answer the same calls: the hand-written
   NativeHold lets the idiomatic layer share their release/check/verify. */
%typemap(javainterfaces) advlock_swig::Lock, advlock_swig::LockSet "NativeHold"

%include "advlock.i"
