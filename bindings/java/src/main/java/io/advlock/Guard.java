package io.advlock;

import io.advlock.internal.NativeHold;

/**
 * What a {@link Lock} and a {@link LockSet} share: a hold on the server taken by one owner,
 * released once, checked without a round trip and verified with one. Package-private: users see
 * its methods on Lock and LockSet, each of which adds what only it has.
 */
abstract sealed class Guard implements AutoCloseable permits Lock, LockSet {
    private final LockSession session;
    private final Mode mode;
    private final boolean reentrant;
    // Never deleted here: another thread may be inside it. Released and closed-session
    // handles answer MisuseException from the C ABI; finalization frees it.
    private final NativeHold handle;

    Guard(LockSession session, NativeHold handle, Mode mode, boolean reentrant) {
        this.session = session;
        this.handle = handle;
        this.mode = mode;
        this.reentrant = reentrant;
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
     * Release now (a set: every lock of it, in one round trip on PostgreSQL). Throws
     * {@link LockLostException} when the lock had been lost (the work done under it may have
     * overlapped another holder), and {@link MisuseException} when already released or the session
     * is closed. Either way it is released afterwards.
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

    /**
     * One round trip, which proves the session and so every lock it holds; strict also asks
     * pg_locks whether this session holds the key (a set: each key, one round trip each).
     */
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

    /** The mode and reentrancy as toString shows them: "" for an exclusive, non-reentrant hold. */
    final String traits() {
        return (mode == Mode.SHARED ? ", shared" : "") + (reentrant ? ", reentrant" : "");
    }
}
