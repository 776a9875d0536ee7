package io.advlock;

/** A connection pooler between client and server (opt in with allowPooler). */
public class PoolerTargetException extends UnsafeTargetException {
    private static final long serialVersionUID = 1L;

    public PoolerTargetException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
