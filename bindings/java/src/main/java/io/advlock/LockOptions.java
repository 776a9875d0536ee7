package io.advlock;

/**
 * How {@link LockSession#tryLock(Key, LockOptions)} and {@link LockSession#lock(Key, java.time.Duration,
 * LockOptions)} take a lock: its {@link Mode}, and whether it is reentrant. A small builder.
 *
 * <pre>{@code
 * LockOptions.defaults().reentrant(true)          // like java.util.concurrent.locks.ReentrantLock
 * LockOptions.defaults().mode(Mode.SHARED)
 * }</pre>
 */
public final class LockOptions {
    Mode mode = Mode.EXCLUSIVE;
    boolean reentrant;

    public static LockOptions defaults() {
        return new LockOptions();
    }

    public LockOptions mode(Mode mode) {
        if (mode == null) throw new InvalidArgumentException("advlock: mode is null", "");
        this.mode = mode;
        return this;
    }

    /**
     * False (the default): the lock is its own owner, and excludes every other lock on the key,
     * even one the same thread takes on the same session (a second exclusive tryLock is empty, a
     * waiting lock() a {@link DeadlockException}: the wait could never end). True: the calling
     * thread's reentrant locks on this session are one owner, as {@code ReentrantLock} or a
     * PostgreSQL session of its own would be: the thread may take the key again (each Lock still
     * releases once), and take it exclusively while it holds it shared when no other owner holds it.
     * They still exclude every other thread, and the same thread's non-reentrant locks.
     */
    public LockOptions reentrant(boolean reentrant) {
        this.reentrant = reentrant;
        return this;
    }

    @Override
    public String toString() {
        return "LockOptions(" + mode + (reentrant ? ", reentrant" : "") + ")";
    }
}
