package io.advlock;

/** The lock was lost: the job must stop acting as its holder. */
public class LockLostException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public LockLostException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
