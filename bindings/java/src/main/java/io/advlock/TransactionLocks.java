package io.advlock;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

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
 */
public final class TransactionLocks {
    private TransactionLocks() {}

    /** True: held until the transaction ends; false: another session holds it. */
    public static boolean tryLock(Connection connection, Key key) {
        return tryLock(connection, key, Mode.EXCLUSIVE);
    }

    public static boolean tryLock(Connection connection, Key key, Mode mode) {
        return key.sqlResult("try_xact_lock", run(connection, key.sql("try_xact_lock", mode)));
    }

    /** Wait as long as it takes (bound it with the transaction's own lock_timeout if needed). */
    public static void lock(Connection connection, Key key, Mode mode) {
        run(connection, key.sql("xact_lock", mode));
    }

    private static boolean run(Connection connection, String sql) {
        try {
            if (connection == null) throw new InvalidArgumentException(-3, "connection is null", "");
            if (connection.getAutoCommit()) {
                throw new MisuseException(-8, "advlock: a transaction-scoped lock needs a transaction, but the "
                        + "connection is in auto-commit mode (the lock would end with its own statement); call "
                        + "setAutoCommit(false) or run inside your TransactionTemplate", "");
            }
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
                rows.next();
                String value = rows.getString(1);
                return value == null || "t".equals(value) || "true".equals(value);
            }
        } catch (SQLException e) {
            throw new AdvlockException("40P01".equals(e.getSQLState()) ? -16 : -18,
                    "advlock: " + e.getMessage(), e.getSQLState());
        }
    }
}
