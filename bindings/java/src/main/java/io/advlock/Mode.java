package io.advlock;

/** How a lock is held. */
public enum Mode {
    /** One holder at a time. */
    EXCLUSIVE,
    /** Shared holders exclude exclusive ones, not each other. */
    SHARED
}
