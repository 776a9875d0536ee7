package io.advlock;

/** A registry file is invalid; the message starts with file:line. */
public class RegistryException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public RegistryException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
