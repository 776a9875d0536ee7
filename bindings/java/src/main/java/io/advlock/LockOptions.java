package io.advlock;

/**
 * How {@link LockSession#tryLock(Key, LockOptions)} and {@link LockSession#lock(Key, java.time.Duration,
 * LockOptions)} take a lock: its {@link Mode}, whether it is reentrant, its slots and its fencing token.
 * A small builder. {@link LockSession#tryLockAll(java.util.List, LockOptions)} and
 * {@link LockSession#lockAll(java.util.List, java.time.Duration, LockOptions)} take a set with its mode and
 * reentrancy; a set has no slots and no fencing token ({@link InvalidArgumentException}).
 *
 * <pre>{@code
 * LockOptions.defaults().reentrant(true)          // like java.util.concurrent.locks.ReentrantLock
 * LockOptions.defaults().mode(Mode.SHARED)
 * LockOptions.defaults().slots(3)                 // at most 3 holders at once
 * LockOptions.defaults().fenced()                 // with a fencing token (PostgreSQL)
 * }</pre>
 */
public final class LockOptions {
    Mode mode = Mode.EXCLUSIVE;
    boolean reentrant;
    int slots;
    boolean fenced;

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

    /**
     * Job slots, "at most N at once": N (1 to 64) takes any one free slot of N, each slot a lock of its
     * own ({@link Key#slot(int)}); {@link Lock#slot()} says which. A tryLock tries every slot, a lock()
     * waits for the first to free. 0 (the default): the key itself. Exclusive mode only; the
     * advlock core refuses other values with an {@link InvalidArgumentException} when the lock is taken.
     */
    public LockOptions slots(int slots) {
        this.slots = slots;
        return this;
    }

    /**
     * Issue a fencing token with the grant ({@link Lock#fenceToken()}, checked with
     * {@link Lock#checkFence(java.sql.Connection)}; see {@link Fencing}). PostgreSQL only
     * ({@link UnsupportedException} elsewhere), exclusive, not reentrant.
     */
    public LockOptions fenced() {
        this.fenced = true;
        return this;
    }

    @Override
    public String toString() {
        return "LockOptions(" + mode + (reentrant ? ", reentrant" : "") + (slots != 0 ? ", slots " + slots : "")
                + (fenced ? ", fenced" : "") + ")";
    }
}
