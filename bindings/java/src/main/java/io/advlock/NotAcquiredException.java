package io.advlock;

/** The lock is held by another session and the wait (if any) ran out. */
public class NotAcquiredException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public NotAcquiredException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
