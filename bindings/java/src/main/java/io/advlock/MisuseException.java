package io.advlock;

/** The API was used out of order: release twice, use after close. */
public class MisuseException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public MisuseException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
