package io.advlock;

/** A bad argument: an unknown option value, a negative timeout. */
public class InvalidArgumentException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public InvalidArgumentException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
