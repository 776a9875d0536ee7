package io.advlock;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;

/**
 * Transaction-scoped locks on your own JDBC connection, inside your own
 * transaction (the Spring {@code TransactionTemplate} pattern): the lock ends
 * with COMMIT or ROLLBACK, so the work and the lock cannot part ways. The key
 * and the statement come from the advlock core; JDBC runs it.
 *
 * <pre>{@code
 * transactionTemplate.execute(status -> {
 *     if (!TransactionLocks.tryLock(connection, Key.pair(100, 1))) return null;  // another run has it
 *     runBatch();                                        // commits with the lock
 *     return null;
 * });
 * }</pre>
 *
 * <p>Server errors become the exceptions a {@link LockSession} throws for them, with the
 * {@link SQLException} as their cause: {@link DeadlockException} (SQLSTATE 40P01),
 * {@link PermissionDeniedException} (42501: EXECUTE on the advisory-lock functions revoked),
 * {@link CanceledException} (57014: {@code Statement.cancel()} or statement_timeout),
 * {@link CapacityException} (53200), {@link ConnectException} (class 08), else
 * {@link AdvlockException}. A wait that runs out (55P03) is {@link NotAcquiredException}.
 */
public final class TransactionLocks {
    private TransactionLocks() {}

    /** True: held until the transaction ends; false: another session holds it. */
    public static boolean tryLock(Connection connection, Key key) {
        return tryLock(connection, key, Mode.EXCLUSIVE);
    }

    public static boolean tryLock(Connection connection, Key key, Mode mode) {
        requireTransaction(connection, key, mode);
        try {
            return key.sqlResult("try_xact_lock", query(connection, key.sql("try_xact_lock", mode)));
        } catch (SQLException e) {
            throw translated(e, "try_xact_lock " + key);
        }
    }

    /**
     * Wait as long as the transaction's own lock_timeout allows (none by default). When that runs out
     * the wait throws {@link NotAcquiredException} and, as PostgreSQL does with any failed statement,
     * leaves the transaction failed: roll it back. {@link #lock(Connection, Key, Duration, Mode)} leaves
     * it usable instead.
     */
    public static void lock(Connection connection, Key key, Mode mode) {
        requireTransaction(connection, key, mode);
        try {
            query(connection, key.sql("xact_lock", mode));
        } catch (SQLException e) {
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                throw notAcquired(e, "lock " + key + " is held by another session: the transaction's lock_timeout "
                        + "ran out, and the transaction has failed (roll it back)");
            }
            throw translated(e, "xact_lock " + key);
        }
    }

    /** {@link #lock(Connection, Key, Duration, Mode)} in exclusive mode. */
    public static void lock(Connection connection, Key key, Duration timeout) {
        lock(connection, key, timeout, Mode.EXCLUSIVE);
    }

    /**
     * Wait up to timeout (null: as long as it takes, whatever the transaction's lock_timeout; zero:
     * try once) inside a savepoint, as the core's {@code advlock_xact_lock} does: when the time runs
     * out it throws {@link NotAcquiredException}, and the transaction is still usable, with its
     * lock_timeout as it was. A lock granted in the race with the timeout is rolled back with the
     * savepoint, never left behind. The other failures (deadlock, cancel...) also roll back to the
     * savepoint before they are thrown.
     */
    public static void lock(Connection connection, Key key, Duration timeout, Mode mode) {
        long ms = timeout == null ? -1 : LockSession.milliseconds(timeout, "timeout");
        if (ms == 0) {
            if (!tryLock(connection, key, mode)) {
                throw new NotAcquiredException(1, "advlock: lock " + key + " is held by another session (no wait)", "");
            }
            return;
        }
        requireTransaction(connection, key, mode);
        String doing = "xact_lock " + key;
        try {
            Savepoint savepoint = connection.setSavepoint("advlock_wait");
            String saved;
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT pg_catalog.current_setting('lock_timeout')")) {
                rows.next();
                saved = rows.getString(1);
            }
            try {
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET LOCAL lock_timeout = '" + (ms < 0 ? "0" : ms + "ms") + "'");
                }
                query(connection, key.sql("xact_lock", mode));
            } catch (SQLException e) {
                if (connection.isClosed()) throw e;
                // Rolling back to the savepoint drops a lock granted in the race, and the SET LOCAL
                // with it; the caller's transaction goes on.
                connection.rollback(savepoint);
                connection.releaseSavepoint(savepoint);
                if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                    throw notAcquired(e, "lock " + key + " is held by another session; gave up after " + timeout);
                }
                throw translated(e, doing);
            }
            // The lock now belongs to the caller's transaction; put its lock_timeout back.
            connection.releaseSavepoint(savepoint);
            try (PreparedStatement restore =
                         connection.prepareStatement("SELECT pg_catalog.set_config('lock_timeout', ?, true)")) {
                restore.setString(1, saved);
                restore.executeQuery().close();
            }
        } catch (SQLException e) {
            throw translated(e, doing);
        }
    }

    // ---- private ---------------------------------------------------------------------

    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private static void requireTransaction(Connection connection, Key key, Mode mode) {
        if (connection == null) throw new InvalidArgumentException(-3, "advlock: connection is null", "");
        if (key == null) throw new InvalidArgumentException(-3, "advlock: key is null", "");
        if (mode == null) throw new InvalidArgumentException(-3, "advlock: mode is null", "");
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
        } catch (SQLException e) {
            throw translated(e, "reading the connection's auto-commit mode");
        }
        if (autoCommit) {
            throw new MisuseException(-8, "advlock: a transaction-scoped lock needs a transaction, but the "
                    + "connection is in auto-commit mode (the lock would end with its own statement); call "
                    + "setAutoCommit(false) or run inside your TransactionTemplate", "");
        }
    }

    /** Runs one statement returning one value; true for a true or void (pg_advisory_xact_lock) answer. */
    private static boolean query(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            String value = rows.getString(1);
            return value == null || "t".equals(value) || "true".equals(value);
        }
    }

    private static NotAcquiredException notAcquired(SQLException cause, String message) {
        NotAcquiredException e = new NotAcquiredException(1, "advlock: " + message, cause.getSQLState());
        e.initCause(cause);
        return e;
    }

    /** The exception the core throws for that SQLSTATE (pg_errors.cpp), with the SQLException as cause. */
    static AdvlockException translated(SQLException cause, String doing) {
        String sqlstate = cause.getSQLState() == null ? "" : cause.getSQLState();
        String message = "advlock: " + doing + ": " + cause.getMessage();
        int status;
        if (sqlstate.startsWith("08")) {
            status = -9;
            message += " (the connection to the server is gone)";
        } else if (sqlstate.equals("53200")) {
            status = -15;
            message += " (the server's lock table is full: raise max_locks_per_transaction on the server, "
                    + "or hold fewer locks at once)";
        } else if (sqlstate.equals("40P01")) {
            status = -16;
        } else if (sqlstate.equals("42501")) {
            status = -17;
            message += " (grant EXECUTE on the advisory-lock functions to this role)";
        } else if (sqlstate.equals("57014")) {
            status = -14;
        } else {
            status = -18;
        }
        AdvlockException e = AdvlockException.create(status, message, sqlstate);
        e.initCause(cause);
        return e;
    }
}
