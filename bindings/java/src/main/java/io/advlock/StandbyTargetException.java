package io.advlock;

/** A hot standby (opt in with allowStandby). */
public class StandbyTargetException extends UnsafeTargetException {
    private static final long serialVersionUID = 1L;

    public StandbyTargetException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
