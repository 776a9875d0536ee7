package io.advlock;

/** A configuration file is invalid; the message starts with file:line. */
public class ConfigException extends AdvlockException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
