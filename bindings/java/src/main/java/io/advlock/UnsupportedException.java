package io.advlock;

/** The backend, server or driver cannot do what was asked (MySQL: shared mode, the run ledger). */
public class UnsupportedException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public UnsupportedException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
