package io.advlock;

/** A read-only server or session (opt in with allowStandby). */
public class ReadOnlyTargetException extends UnsafeTargetException {
    private static final long serialVersionUID = 1L;

    public ReadOnlyTargetException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
