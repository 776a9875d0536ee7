package io.advlock;

import io.advlock.internal.NativeLock;

/**
 * One held lock. Release it with {@link #close()} (try-with-resources) or
 * {@link #release()}. {@link #ensureHeld()} costs no round trip: call it in the
 * job's loops; it throws {@link LockLostException} once the lock is known lost.
 *
 * <p>A Lock dropped without release is released when the garbage collector
 * frees it (the C ABI hands that release to the session's own thread, so the
 * collector never waits on the network); release it yourself to see a loss.
 */
public final class Lock implements AutoCloseable {
    private final LockSession session;
    private final Key key;
    private final Mode mode;
    private final boolean reentrant;
    private final int slot;  // fixed at the grant: read once, so toString never calls into a closed session
    // Never deleted here: another thread may be inside it. Released and closed-session
    // handles answer MisuseException from the C ABI; finalization frees it.
    private final NativeLock handle;

    Lock(LockSession session, NativeLock handle, Key key, Mode mode, boolean reentrant) {
        this.session = session;
        this.handle = handle;
        this.key = key;
        this.mode = mode;
        this.reentrant = reentrant;
        this.slot = handle.slot();
    }

    public Key key() {
        return key;
    }

    public Mode mode() {
        return mode;
    }

    /** Taken with {@link LockOptions#reentrant(boolean)}: one owner with its thread's other reentrant Locks. */
    public boolean isReentrant() {
        return reentrant;
    }

    public LockSession session() {
        return session;
    }

    /**
     * The key this lock holds on the server: {@link #key()}, or for a lock taken with
     * {@link LockOptions#slots(int)} its slot's key ({@code key().slot(slot())}), as pg_locks shows it.
     */
    public Key serverKey() {
        return Key.own(handle.serverKey());
    }

    /** The slot this lock holds, 1 to N, when taken with {@link LockOptions#slots(int)}; 0 otherwise. */
    public int slot() {
        return slot;
    }

    /**
     * The fencing token issued with the grant ({@link LockOptions#fenced()}); still readable after
     * release. Throws {@link MisuseException} for a lock taken without one.
     */
    public long fenceToken() {
        return handle.fenceToken();
    }

    /**
     * Check this lock's fencing token on the job's own connection, inside its transaction, right before
     * commit (see {@link Fencing}): throws {@link FencedOutException} when a newer holder took the lock
     * (roll back), and otherwise holds off the next holder's token until the transaction ends, so its
     * commit cannot overlap a newer holder's work. Throws {@link MisuseException} when the connection
     * is in auto-commit mode or the lock was taken without {@link LockOptions#fenced()}; other server
     * errors map as in {@link TransactionLocks}, with the {@link java.sql.SQLException} as cause.
     */
    public void checkFence(java.sql.Connection connection) {
        Fencing.check(connection, this);
    }

    /**
     * Release now. Throws {@link LockLostException} when the lock had been lost
     * (the work done under it may have overlapped another holder), and
     * {@link MisuseException} when already released or the session is closed.
     */
    public void release() {
        handle.release();
    }

    /**
     * Releases if still held; a loss found here is thrown (see {@link #release()}). Already
     * released, or its session closed (which released it): nothing to do.
     */
    @Override
    public void close() {
        try {
            handle.release();
        } catch (MisuseException e) {
            // released before, or by its session's close
        }
    }

    /** No round trip: throws {@link LockLostException} once the lock is known lost. */
    public void ensureHeld() {
        handle.check();
    }

    /** One round trip; strict also asks pg_locks whether this session holds this key. */
    public void verify(boolean strict) {
        handle.verify(strict);
    }

    public void verify() {
        verify(false);
    }

    /** True until released or known lost (no round trip). */
    public boolean isHeld() {
        return handle.held();
    }

    @Override
    public String toString() {
        return "Lock(" + key + (slot != 0 ? ", slot " + slot : "") + (mode == Mode.SHARED ? ", shared" : "")
                + (reentrant ? ", reentrant" : "") + ")";
    }
}
