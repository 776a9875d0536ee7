package io.advlock;

/** The role may not call the advisory-lock functions (SQLSTATE 42501). */
public class PermissionDeniedException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public PermissionDeniedException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
