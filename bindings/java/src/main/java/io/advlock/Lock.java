package io.advlock;

import io.advlock.internal.NativeLock;

/**
 * One held lock. Release it with {@link #close()} (try-with-resources) or
 * {@link #release()}. {@link #ensureHeld()} costs no round trip: call it in the
 * job's loops; it throws {@link LockLostException} once the lock is known lost.
 */
public final class Lock implements AutoCloseable {
    private final LockSession session;
    private final Key key;
    private final Mode mode;
    private final boolean reentrant;
    private NativeLock handle;  // null once released or its session closed

    Lock(LockSession session, NativeLock handle, Key key, Mode mode, boolean reentrant) {
        this.session = session;
        this.handle = handle;
        this.key = key;
        this.mode = mode;
        this.reentrant = reentrant;
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
     * Release now. Throws {@link LockLostException} when the lock had been lost
     * (the work done under it may have overlapped another holder), and
     * {@link MisuseException} when already released or the session is closed.
     */
    public void release() {
        session.call(() -> {
            NativeLock h = requireHandle("release");
            try {
                h.release();
            } finally {
                forget();
                session.forget(this);
            }
            return null;
        });
    }

    /** Releases if still held; a loss found here is thrown (see {@link #release()}). */
    @Override
    public void close() {
        synchronized (this) {
            if (handle == null) return;
        }
        if (session.isClosed()) return;
        release();
    }

    /** No round trip: throws {@link LockLostException} once the lock is known lost. */
    public void ensureHeld() {
        session.call(() -> {
            requireHandle("ensureHeld").check();
            return null;
        });
    }

    /** One round trip; strict also asks pg_locks whether this session holds this key. */
    public void verify(boolean strict) {
        session.call(() -> {
            requireHandle("verify").verify(strict);
            return null;
        });
    }

    public void verify() {
        verify(false);
    }

    /** True until released or known lost (no round trip). */
    public boolean isHeld() {
        try {
            return session.call(() -> {
                NativeLock h;
                synchronized (this) {
                    h = handle;
                }
                return h != null && h.held();
            });
        } catch (MisuseException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "Lock(" + key + (mode == Mode.SHARED ? ", shared" : "") + (reentrant ? ", reentrant" : "") + ")";
    }

    /** Drop the native handle (after release, or when the session closes). */
    synchronized void forget() {
        if (handle != null) {
            handle.delete();
            handle = null;
        }
    }

    private synchronized NativeLock requireHandle(String doing) {
        if (handle == null) {
            throw new MisuseException(-8, "advlock: Lock." + doing + ": the lock " + key + " was already released", "");
        }
        return handle;
    }
}
