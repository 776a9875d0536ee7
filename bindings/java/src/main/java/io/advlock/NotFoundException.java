package io.advlock;

/** No registry entry with that name or key (the message suggests the closest). */
public class NotFoundException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public NotFoundException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
