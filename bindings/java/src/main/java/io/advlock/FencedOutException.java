package io.advlock;

/**
 * The lock was lost and a newer holder took it: the fencing token this job's transaction checked
 * ({@link Lock#checkFence(java.sql.Connection)}) was superseded (SQLSTATE 55T01). Roll the
 * transaction back: its work would overlap the new holder's. A kind of {@link LockLostException}, so
 * code that stops on a lost lock stops on this too.
 */
public class FencedOutException extends LockLostException {
    private static final long serialVersionUID = 1L;

    public FencedOutException(String message, String sqlstate) {
        super(message, sqlstate);
    }
}
