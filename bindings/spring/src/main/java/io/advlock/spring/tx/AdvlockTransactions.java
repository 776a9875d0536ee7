package io.advlock.spring.tx;

import io.advlock.InvalidArgumentException;
import io.advlock.Key;
import io.advlock.MisuseException;
import io.advlock.TransactionLocks;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Field note 001's pattern in a Spring-managed transaction: the transaction-scoped lock
 * (pg_try_advisory_xact_lock, through {@link TransactionLocks}) on the very connection Spring bound
 * to the current transaction, so the lock and the job's work commit or roll back together.
 *
 * <pre>{@code
 * AdvlockTransactions locks = new AdvlockTransactions(dataSource);   // the transaction manager's DataSource
 * Optional<Integer> rows = locks.callIfFree(transactionTemplate, Key.fromName("daily_summary"),
 *         status -> jdbc.update("INSERT INTO batch_execution_log (job_name, executed_at) VALUES (?, now())", "daily-summary"));
 * if (rows.isEmpty()) log.info("another run holds daily_summary: skipped");
 * }</pre>
 *
 * <p>It refuses, with a {@link MisuseException} naming the pitfall, what protects nothing: a lock
 * outside a transaction (in auto-commit it would end with its own statement), and a lock on a
 * DataSource the transaction does not use (JdbcTemplate, the transaction manager and this class
 * must share one DataSource, or the lock lands on a connection the work never touches). Lock then
 * commit at once protects nothing either: run the work inside the same transaction, as
 * {@link #callIfFree} does.
 */
public final class AdvlockTransactions {
    private final DataSource dataSource;

    /** dataSource: the one the transaction manager and the job's JdbcTemplate use. */
    public AdvlockTransactions(DataSource dataSource) {
        if (dataSource == null) throw new InvalidArgumentException("advlock: dataSource is null", "");
        this.dataSource = dataSource;
    }

    /** In the current Spring transaction: true, held until it commits or rolls back; false, another session holds it. */
    public boolean tryLock(Key key) {
        return onTransactionConnection(key, connection -> TransactionLocks.tryLock(connection, key));
    }

    /**
     * In the current Spring transaction: wait up to timeout (null: as long as it takes) as
     * {@link TransactionLocks#lock(Connection, Key, Duration)} does; {@link io.advlock.NotAcquiredException}
     * when it runs out, the transaction still usable.
     */
    public void lock(Key key, Duration timeout) {
        onTransactionConnection(key, connection -> {
            TransactionLocks.lock(connection, key, timeout);
            return null;
        });
    }

    /**
     * The one call: in a new transaction of transactions (or one it joins, as its propagation says),
     * try the lock and, when it is free, run work in the same transaction; empty when another holder
     * has it (work not run, nothing written). The lock ends with the commit or rollback. work must
     * return a value (a null would read as "skipped"): for work without one, use {@link #runIfFree}.
     */
    public <T> Optional<T> callIfFree(TransactionOperations transactions, Key key, TransactionCallback<T> work) {
        if (transactions == null) throw new InvalidArgumentException("advlock: transactions is null", "");
        if (work == null) throw new InvalidArgumentException("advlock: work is null", "");
        return transactions.execute(status -> {
            if (!tryLock(key)) return Optional.<T>empty();
            T result = work.doInTransaction(status);
            if (result == null) {
                // Thrown inside the transaction: it rolls back rather than pass for a skip.
                throw new InvalidArgumentException("advlock: callIfFree's work returned null, which would read as "
                        + "\"another holder has the lock\"; return a value, or use runIfFree", "");
            }
            return Optional.of(result);
        });
    }

    /** {@link #callIfFree(TransactionOperations, Key, TransactionCallback)} with a TransactionTemplate on manager. */
    public <T> Optional<T> callIfFree(PlatformTransactionManager manager, Key key, TransactionCallback<T> work) {
        return callIfFree(template(manager), key, work);
    }

    /** callIfFree for work without a result: true when it ran, false when another holder has the lock. */
    public boolean runIfFree(TransactionOperations transactions, Key key, Consumer<TransactionStatus> work) {
        if (work == null) throw new InvalidArgumentException("advlock: work is null", "");
        return callIfFree(transactions, key, status -> {
            work.accept(status);
            return Boolean.TRUE;
        }).isPresent();
    }

    public boolean runIfFree(PlatformTransactionManager manager, Key key, Consumer<TransactionStatus> work) {
        return runIfFree(template(manager), key, work);
    }

    // ---- private ---------------------------------------------------------------------

    private <T> T onTransactionConnection(Key key, Function<Connection, T> action) {
        if (key == null) throw new InvalidArgumentException("advlock: key is null", "");
        if (!TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new MisuseException("advlock: a transaction-scoped lock on " + key + " needs an active Spring "
                    + "transaction, and this thread has none: outside one the lock would end with its own statement "
                    + "(auto-commit) and protect nothing; call it inside TransactionTemplate.execute or a "
                    + "@Transactional method, or use callIfFree", "");
        }
        boolean bound = TransactionSynchronizationManager.hasResource(dataSource);
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            if (!bound && autoCommit(connection)) {
                throw new MisuseException("advlock: the active transaction does not use this DataSource (its "
                        + "connection is in auto-commit mode), so a lock on " + key + " would protect nothing; give "
                        + "AdvlockTransactions the DataSource of the transaction manager and of the job's JdbcTemplate", "");
            }
            return action.apply(connection);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    private static boolean autoCommit(Connection connection) {
        try {
            return connection.getAutoCommit();
        } catch (SQLException e) {
            throw new MisuseException("advlock: cannot read the connection's auto-commit mode: " + e.getMessage(), "");
        }
    }

    private static TransactionTemplate template(PlatformTransactionManager manager) {
        if (manager == null) throw new InvalidArgumentException("advlock: transaction manager is null", "");
        return new TransactionTemplate(manager);
    }
}
