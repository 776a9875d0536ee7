package io.advlock;

/** An unexpected internal failure: a bug in advlock; please report it. */
public class InternalException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public InternalException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
