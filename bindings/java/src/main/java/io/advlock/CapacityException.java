package io.advlock;

/** The server's lock table is full (SQLSTATE 53200). */
public class CapacityException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public CapacityException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
