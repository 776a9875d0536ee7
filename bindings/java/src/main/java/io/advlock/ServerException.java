package io.advlock;

/** Any other server error; {@link #sqlstate()} says which. */
public class ServerException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public ServerException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
