package io.advlock;

/** The server is one where locks would exclude no one; refused unless the options opt in. */
public class UnsafeTargetException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    protected UnsafeTargetException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
