package io.advlock;

/**
 * Base of every advlock exception. Each subclass stands for one outcome a
 * caller may need to tell apart; catch the class, never parse the message.
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

    public AdvlockException(int status, String message, String sqlstate) {
        super(message);
        this.status = status;
        this.sqlstate = sqlstate == null ? "" : sqlstate;
    }

    /** The C ABI's status code (advlock.h), e.g. -13 for ADVLOCK_ELOST. */
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
        switch (status) {
            case 1: return new NotAcquiredException(status, message, sqlstate);
            case -3: return new InvalidArgumentException(status, message, sqlstate);
            case -4: return new BadKeyException(status, message, sqlstate);
            case -5: return new RegistryException(status, message, sqlstate);
            case -6: return new NotFoundException(status, message, sqlstate);
            case -8: return new MisuseException(status, message, sqlstate);
            case -9: return new ConnectException(status, message, sqlstate);
            case -10: return new StandbyTargetException(status, message, sqlstate);
            case -11: return new ReadOnlyTargetException(status, message, sqlstate);
            case -12: return new PoolerTargetException(status, message, sqlstate);
            case -13: return new LockLostException(status, message, sqlstate);
            case -14: return new CanceledException(status, message, sqlstate);
            case -15: return new CapacityException(status, message, sqlstate);
            case -16: return new DeadlockException(status, message, sqlstate);
            case -17: return new PermissionDeniedException(status, message, sqlstate);
            case -19: return new UnsupportedException(status, message, sqlstate);
            case -20: return new ConfigException(status, message, sqlstate);
            case -21: return new ClusterTargetException(status, message, sqlstate);
            case -22: return new UnsafeLockDirectoryException(status, message, sqlstate);
            default: return new AdvlockException(status, message, sqlstate);
        }
    }
}
