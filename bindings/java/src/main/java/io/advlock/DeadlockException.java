package io.advlock;

/** The server found a deadlock (SQLSTATE 40P01). */
public class DeadlockException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public DeadlockException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
