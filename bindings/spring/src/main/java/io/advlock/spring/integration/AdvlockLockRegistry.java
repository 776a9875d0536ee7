package io.advlock.spring.integration;

import io.advlock.Key;
import io.advlock.LockLostListener;
import io.advlock.SessionOptions;
import io.advlock.spring.support.LockSessionSource;
import java.util.OptionalLong;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * A Spring Integration {@link LockRegistry} on advlock session locks: {@link #obtain} gives a
 * {@link java.util.concurrent.locks.Lock} that excludes every other process, host and thread taking
 * the same key. Keys: a String is a name ({@link Key#fromName}, the key {@code advlock run --name}
 * takes), a Long, Integer, Short, Byte or BigInteger a bigint key, an {@link Key} itself; another
 * type is an {@link IllegalArgumentException} naming it.
 *
 * <p>The locks are reentrant in the thread holding them, like SI's JdbcLockRegistry: each lock()
 * needs its unlock(), and an unlock() from a thread holding none is an
 * {@link IllegalMonitorStateException}. lockInterruptibly() and tryLock(time, unit) end at
 * Thread.interrupt() with an {@link InterruptedException}; lock() waits on through interrupts and
 * sets the flag again when it returns, as the {@code Lock} contract asks. newCondition() is
 * unsupported. A lock that was lost (the session died) makes its unlock() throw advlock's
 * {@link io.advlock.LockLostException}: the work done under it may have overlapped another holder.
 *
 * <p>All locks live on one advlock session of the registry's own (not a pooled DataSource
 * connection: see {@link LockSessionSource}), opened by the first lock and replaced after a loss;
 * {@link #close()} releases them all at once. Advisory locks have no time to live, so the
 * registry is neither renewable nor a {@code DistributedLock} source: a lock is held until it is
 * unlocked or its session ends.
 */
public final class AdvlockLockRegistry implements LockRegistry<java.util.concurrent.locks.Lock>, AutoCloseable {
    private final LockSessionSource sessions;
    private final ThreadHolds holds = new ThreadHolds();

    /** A registry on url (PostgreSQL or JDBC URL, as {@link io.advlock.LockSession#open(String)} takes it). */
    public AdvlockLockRegistry(String url) {
        this(url, SessionOptions.defaults().applicationName("advlock-lock-registry"), (session, why) -> {});
    }

    /** listener is told when the session's locks are lost, on advlock's watcher thread. */
    public AdvlockLockRegistry(String url, SessionOptions options, LockLostListener listener) {
        sessions = new LockSessionSource(url, options, listener);
    }

    /** A lock on the key; cheap: the server is asked when it is locked. */
    @Override
    public java.util.concurrent.locks.Lock obtain(Object lockKey) {
        return new RegistryLock(RegistryKeys.of(lockKey), sessions, holds);
    }

    /** The server's id for the session open now (the PostgreSQL backend pid); empty before the first lock. */
    public OptionalLong serverId() {
        return sessions.serverId();
    }

    /** Release every lock at once, by closing the session. */
    @Override
    public void close() {
        sessions.close();
    }
}
