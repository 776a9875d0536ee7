package io.advlock;

/**
 * Base of every advlock exception. Each subclass stands for one outcome a
 * caller may need to tell apart; catch the class, never parse the message.
 * Every status of the C ABI's status table has its class (the mapping is read
 * from that table when the class loads: see Statuses); a status this binding
 * does not know is an AdvlockException.
 *
 * <p>They are unchecked on purpose: a batch cannot do anything useful about
 * most of them where they are thrown (the job should stop), they pass through
 * lambdas such as Spring's {@code TransactionCallback} without wrapping, and
 * the one outcome that is routine, "held elsewhere", is not an exception at
 * all for {@link LockSession#tryLock(Key)} (an empty {@link java.util.Optional}).
 */
public class AdvlockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String sqlstate;

    /** An exception for a status the table may lack; the subclasses know their own. */
    public AdvlockException(int status, String message, String sqlstate) {
        super(message);
        this.status = status;
        this.sqlstate = sqlstate == null ? "" : sqlstate;
    }

    /** The status is the one the status table gives this exception's class. */
    protected AdvlockException(String message, String sqlstate) {
        super(message);
        this.status = Statuses.statusOf(getClass());
        this.sqlstate = sqlstate == null ? "" : sqlstate;
    }

    /** The C ABI's status code (advlock.h's advlock_status, e.g. ADVLOCK_ELOST for a LockLostException). */
    public int status() {
        return status;
    }

    /** The server's five-character SQLSTATE, or "" when there was none. */
    public String sqlstate() {
        return sqlstate;
    }

    /** The exception for a status; called by the native code, with UTF-8 text. */
    static AdvlockException create(int status, byte[] message, byte[] sqlstate) {
        java.nio.charset.Charset utf8 = java.nio.charset.StandardCharsets.UTF_8;
        return create(status, new String(message, utf8), new String(sqlstate, utf8));
    }

    static AdvlockException create(int status, String message, String sqlstate) {
        return Statuses.create(status, message, sqlstate);
    }
}
