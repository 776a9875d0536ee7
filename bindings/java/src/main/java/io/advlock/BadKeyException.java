package io.advlock;

/** A malformed key text, or a lock name that is empty, too long or not UTF-8. */
public class BadKeyException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public BadKeyException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
