package io.advlock;

/**
 * Told once when a session's locks are lost. Runs on a thread of advlock's
 * (one per session that has listeners), never on the JVM thread doing the
 * work; keep it short: set a flag, interrupt the worker, or close the session.
 */
@FunctionalInterface
public interface LockLostListener {
    void lockLost(LockSession session, String why);
}
