package io.advlock;

/** Memory could not be allocated (native memory; the JVM's own shortage is an OutOfMemoryError). */
public class OutOfMemoryException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public OutOfMemoryException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
