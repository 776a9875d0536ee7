package io.advlock;

/** The database could not be reached, or the connection failed. */
public class ConnectException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public ConnectException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
