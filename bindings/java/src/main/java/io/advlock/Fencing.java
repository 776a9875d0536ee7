package io.advlock;

import io.advlock.internal.AdvlockNative;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Fencing tokens on PostgreSQL: a lock taken with {@link LockOptions#fenced()} carries a token
 * ({@link Lock#fenceToken()}) greater than every earlier one for its key, and the job checks it in
 * its own data transaction ({@link Lock#checkFence(Connection)}) before committing, so the committed
 * work of a holder that lost the lock and of the next holder never overlap.
 *
 * <pre>{@code
 * try (Lock lock = session.lock(key, Duration.ofMinutes(5), LockOptions.defaults().fenced())) {
 *     connection.setAutoCommit(false);
 *     writeTheBatch(connection);
 *     lock.checkFence(connection);   // FencedOutException: a newer holder took the lock
 *     connection.commit();
 * }
 * }</pre>
 *
 * The statements, the token logic and the SQLSTATE mapping are the advlock core's; JDBC runs them.
 */
public final class Fencing {
    private Fencing() {}

    /**
     * The statements that create the table {@code public.advlock_fence} and its functions, once per
     * database (idempotent; the same as {@code advlock sql fence}).
     */
    public static String sql() {
        return AdvlockNative.fenceSql();
    }

    /** {@link Lock#checkFence(Connection)}: the core's statement for the lock's key and token, run by JDBC. */
    static void check(Connection connection, Lock lock) {
        if (connection == null) throw new InvalidArgumentException("advlock: connection is null", "");
        // Misuse before any round trip when the lock carries no token.
        long token = lock.fenceToken();
        Key held = lock.serverKey();
        boolean autoCommit;
        try {
            autoCommit = connection.getAutoCommit();
        } catch (SQLException e) {
            throw TransactionLocks.translated(e, "reading the connection's auto-commit mode");
        }
        if (autoCommit) {
            throw new MisuseException("advlock: the fence check of lock " + held + " needs the job's transaction, "
                    + "but the connection is in auto-commit mode (the check would end with its own statement and "
                    + "could not hold off the next holder); call setAutoCommit(false) and check before commit", "");
        }
        String sql = held.toNative().fenceCheckSql(token);
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw TransactionLocks.translated(e, "fence check of lock " + held + " (token " + token + ")");
        }
    }
}
