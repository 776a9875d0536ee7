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
public final class Lock extends Guard {
    private final Key key;
    private final int slot;  // fixed at the grant: read once, so toString never calls into a closed session
    private final NativeLock handle;

    Lock(LockSession session, NativeLock handle, Key key, Mode mode, boolean reentrant) {
        super(session, handle, mode, reentrant);
        this.handle = handle;
        this.key = key;
        this.slot = handle.slot();
    }

    public Key key() {
        return key;
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

    @Override
    public String toString() {
        return "Lock(" + key + (slot != 0 ? ", slot " + slot : "") + traits() + ")";
    }
}
