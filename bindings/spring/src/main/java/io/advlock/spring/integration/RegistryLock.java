package io.advlock.spring.integration;

import io.advlock.CanceledException;
import io.advlock.Key;
import io.advlock.Lock;
import io.advlock.LockOptions;
import io.advlock.LockSession;
import io.advlock.NotAcquiredException;
import io.advlock.spring.support.LockSessionSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * One key of an {@link AdvlockLockRegistry} as a {@code java.util.concurrent.locks.Lock}. Every take
 * is an advlock reentrant Lock (one owner with the thread's other holds on the key, excluding every
 * other thread and session); the waits, the interrupt and the owner rule are the advlock session's.
 */
final class RegistryLock implements java.util.concurrent.locks.Lock {
    private final Key key;
    private final LockSessionSource sessions;
    private final ThreadHolds holds;

    RegistryLock(Key key, LockSessionSource sessions, ThreadHolds holds) {
        this.key = key;
        this.sessions = sessions;
        this.holds = holds;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    holds.add(key, session().lock(key, null, reentrant()));
                    return;
                } catch (CanceledException e) {
                    if (!(e.getCause() instanceof InterruptedException)) throw e;
                    Thread.interrupted();  // lock() is not interruptible: wait again, set the flag at the end
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) Thread.currentThread().interrupt();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        take(null);
    }

    @Override
    public boolean tryLock() {
        return session().tryLock(key, reentrant()).map(lock -> {
            holds.add(key, lock);
            return true;
        }).orElse(false);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        if (Thread.interrupted()) throw new InterruptedException("advlock: interrupted before waiting for lock " + key);
        if (time <= 0) return tryLock();
        try {
            take(Duration.of(time, unit.toChronoUnit()));
            return true;
        } catch (NotAcquiredException e) {
            return false;
        }
    }

    /** Throws advlock's LockLostException when the lock had been lost (its work may have overlapped). */
    @Override
    public void unlock() {
        holds.removeNewest(key).release();
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("advlock: a database lock has no conditions");
    }

    @Override
    public String toString() {
        return "AdvlockLockRegistry.Lock(" + key + ")";
    }

    /** The interrupt ends advlock's wait with a CanceledException caused by it: the Lock contract wants it thrown. */
    private void take(Duration timeout) throws InterruptedException {
        try {
            holds.add(key, session().lock(key, timeout, reentrant()));
        } catch (CanceledException e) {
            if (!(e.getCause() instanceof InterruptedException)) throw e;
            Thread.interrupted();  // thrown means cleared, as the Lock contract has it
            InterruptedException interrupted = new InterruptedException("advlock: interrupted waiting for lock " + key);
            interrupted.initCause(e);
            throw interrupted;
        }
    }

    /** A re-entry stays on the session of the thread's first hold; a first take uses the live session. */
    private LockSession session() {
        Lock newest = holds.newest(key);
        return newest != null ? newest.session() : sessions.current();
    }

    private static LockOptions reentrant() {
        return LockOptions.defaults().reentrant(true);
    }
}
