package io.advlock;

/** A wait was cancelled by LockSession.cancel(). */
public class CanceledException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public CanceledException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
