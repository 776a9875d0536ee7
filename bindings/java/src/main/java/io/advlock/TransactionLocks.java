package io.advlock;

import io.advlock.internal.AdvlockNative;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * <p>Server errors become the exceptions a {@link LockSession} throws for them, as the core maps
 * their SQLSTATE ({@code advlock_status_from_sqlstate}), with the {@link SQLException} as their
 * cause: {@link DeadlockException} (SQLSTATE 40P01),
 * {@link PermissionDeniedException} (42501: EXECUTE on the advisory-lock functions revoked),
 * {@link CanceledException} (57014: {@code Statement.cancel()} or statement_timeout),
 * {@link CapacityException} (53200), {@link ConnectException} (class 08), else
 * {@link ServerException}. A wait that runs out (55P03) is {@link NotAcquiredException}.
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
            throw translated(e, "xact_lock " + key, "lock " + key + " is held by another session: the "
                    + "transaction's lock_timeout ran out, and the transaction has failed (roll it back)");
        }
    }

    /** {@link #lock(Connection, Key, Duration, Mode)} in exclusive mode. */
    public static void lock(Connection connection, Key key, Duration timeout) {
        lock(connection, key, timeout, Mode.EXCLUSIVE);
    }

    /**
     * Wait up to timeout (null: as long as it takes, whatever the transaction's lock_timeout; zero:
     * try once) inside a savepoint, running the statements of the core's own {@code advlock_xact_lock}
     * ({@code advlock_xact_wait_sql}) through JDBC: when the time runs out it throws
     * {@link NotAcquiredException}, and the transaction is still usable. Either way its lock_timeout
     * is as it was. A lock granted in the race with the timeout is rolled back with the
     * savepoint, never left behind. The other failures (deadlock, cancel...) also roll back to the
     * savepoint before they are thrown.
     */
    public static void lock(Connection connection, Key key, Duration timeout, Mode mode) {
        long ms = timeout == null ? WAIT_FOREVER : LockSession.milliseconds(timeout, "timeout");
        if (ms == 0) {
            if (!tryLock(connection, key, mode)) {
                throw new NotAcquiredException("advlock: lock " + key + " is held by another session (no wait)", "");
            }
            return;
        }
        requireTransaction(connection, key, mode);
        String doing = "xact_lock " + key;
        try {
            // The core's steps (advlock_xact_wait_sql), in its order, on the caller's connection.
            execute(connection, key.xactWaitSql("savepoint", mode, ms, null));
            String saved = null;
            SQLException failure = null;
            try {
                saved = firstValue(connection, key.xactWaitSql("set_timeout", mode, ms, null));
                execute(connection, key.xactWaitSql("lock", mode, ms, null));
            } catch (SQLException e) {
                failure = e;
            }
            if (failure == null) {
                // The lock now belongs to the caller's transaction; put its lock_timeout back.
                execute(connection, key.xactWaitSql("restore_timeout", mode, ms, saved));
                execute(connection, key.xactWaitSql("release", mode, ms, null));
                return;
            }
            if (connection.isClosed()) throw translated(failure, doing);
            // Rolling back to the savepoint drops a lock granted in the race, and the lock_timeout
            // with it; the caller's transaction goes on.
            try {
                execute(connection, key.xactWaitSql("rollback", mode, ms, null));
                execute(connection, key.xactWaitSql("release", mode, ms, null));
            } catch (SQLException e) {
                e.addSuppressed(failure);
                throw e;
            }
            throw translated(failure, doing, "lock " + key + " is held by another session; gave up after " + timeout);
        } catch (SQLException e) {
            throw translated(e, doing);
        }
    }

    // ---- private ---------------------------------------------------------------------

    private static final long WAIT_FOREVER = -1;  // ADVLOCK_WAIT_FOREVER

    private static void requireTransaction(Connection connection, Key key, Mode mode) {
        if (connection == null) throw new InvalidArgumentException("advlock: connection is null", "");
        if (key == null) throw new InvalidArgumentException("advlock: key is null", "");
        if (mode == null) throw new InvalidArgumentException("advlock: mode is null", "");
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
        } catch (SQLException e) {
            throw translated(e, "reading the connection's auto-commit mode");
        }
        if (autoCommit) {
            throw new MisuseException("advlock: a transaction-scoped lock needs a transaction, but the "
                    + "connection is in auto-commit mode (the lock would end with its own statement); call "
                    + "setAutoCommit(false) or run inside your TransactionTemplate", "");
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The first column of the one row a statement answers. */
    private static String firstValue(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) throw new SQLException("advlock: " + sql + " answered no row");
            return rows.getString(1);
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

    static AdvlockException translated(SQLException cause, String doing) {
        return translated(cause, doing, null);
    }

    /**
     * The exception the core's status for that SQLSTATE (advlock_status_from_sqlstate) maps to,
     * with the SQLException as cause; notAcquired, when given, says what a wait that ran out means.
     */
    private static AdvlockException translated(SQLException cause, String doing, String notAcquired) {
        String sqlstate = cause.getSQLState() == null ? "" : cause.getSQLState();
        AdvlockException e = AdvlockException.create(AdvlockNative.statusFromSqlstate(sqlstate),
                "advlock: " + doing + ": " + cause.getMessage(), sqlstate);
        if (e instanceof NotAcquiredException && notAcquired != null) {
            e = new NotAcquiredException("advlock: " + notAcquired, sqlstate);
        }
        e.initCause(cause);
        return e;
    }
}
