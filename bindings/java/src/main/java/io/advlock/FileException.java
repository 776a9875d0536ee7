package io.advlock;

/** A file could not be read (a registry file, a lock directory); the message names it. */
public class FileException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public FileException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
