package io.advlock.internal;

/**
 * What NativeLock and NativeLockSet both answer (advlock_java.i makes the two SWIG proxies
 * implement it), so io.advlock's Lock and LockSet share one implementation of release, check and
 * verify instead of two copies that could drift.
 */
public interface NativeHold {
    void release();

    void check();

    void verify(boolean strict);

    boolean held();
}
