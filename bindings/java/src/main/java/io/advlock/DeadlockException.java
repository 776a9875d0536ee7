package io.advlock;

/** The server found a deadlock (SQLSTATE 40P01). */
public class DeadlockException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public DeadlockException(int status, String message, String sqlstate) {
        super(status, message, sqlstate);
    }
}
