package io.advlock.spring.tx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import io.advlock.InvalidArgumentException;
import io.advlock.Key;
import io.advlock.MisuseException;
import io.advlock.NotAcquiredException;
import io.advlock.spring.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Field note 001 in a real Spring transaction on a real PostgreSQL, the other session a plain connection. */
class AdvlockTransactionsTest {
    private static final Key KEY = Key.pair(100, 11);
    private static final String OTHER_SESSION_TRIES = "SELECT pg_try_advisory_xact_lock(100, 11)";

    private static HikariDataSource dataSource;
    private static TransactionTemplate transactions;
    private static JdbcTemplate jdbc;
    private static AdvlockTransactions locks;

    @BeforeAll
    static void setUp() {
        dataSource = TestDatabase.pool();
        transactions = new TransactionTemplate(new JdbcTransactionManager(dataSource));
        jdbc = new JdbcTemplate(dataSource);
        locks = new AdvlockTransactions(dataSource);
        jdbc.execute("CREATE TABLE IF NOT EXISTS spring_tx_log (id bigint GENERATED ALWAYS AS IDENTITY, job_name text NOT NULL)");
    }

    @AfterAll
    static void tearDown() {
        dataSource.close();
    }

    @Test
    void heldWhileTheTransactionRunsAndReleasedAtCommit() throws SQLException {
        transactions.executeWithoutResult(status -> {
            assertTrue(locks.tryLock(KEY));
            assertFalse(otherSessionGetsUnchecked(), "another session got the lock of a running transaction");
        });
        assertTrue(otherSessionGets(), "still held after the commit");
    }

    @Test
    void lockWaitsAndRunsOutWithTheTransactionStillUsable() throws SQLException {
        transactions.executeWithoutResult(status -> {
            locks.lock(KEY, Duration.ofSeconds(30));
            assertFalse(otherSessionGetsUnchecked());
        });
        try (Connection holder = TestDatabase.connect()) {
            holder.createStatement().execute("SELECT pg_advisory_lock(100, 11)");
            int rows = transactions.execute(status -> {
                assertThrows(NotAcquiredException.class, () -> locks.lock(KEY, Duration.ofMillis(50)));
                return jdbc.update("INSERT INTO spring_tx_log (job_name) VALUES (?)", "after a failed wait");
            });
            assertEquals(1, rows);
        }
    }

    @Test
    void releasedAtRollback() throws SQLException {
        transactions.executeWithoutResult(status -> {
            assertTrue(locks.tryLock(KEY));
            status.setRollbackOnly();
        });
        assertTrue(otherSessionGets(), "still held after the rollback");
    }

    @Test
    void refusedOutsideATransaction() {
        MisuseException refused = assertThrows(MisuseException.class, () -> locks.tryLock(KEY));
        assertTrue(refused.getMessage().contains("needs an active Spring transaction"), refused.getMessage());
    }

    @Test
    void refusedOnADataSourceTheTransactionDoesNotUse() {
        try (HikariDataSource other = TestDatabase.pool()) {
            AdvlockTransactions elsewhere = new AdvlockTransactions(other);
            MisuseException refused = assertThrows(MisuseException.class,
                    () -> transactions.executeWithoutResult(status -> elsewhere.tryLock(KEY)));
            assertTrue(refused.getMessage().contains("does not use this DataSource"), refused.getMessage());
        }
    }

    @Test
    void callIfFreeRunsTheWorkInTheLocksTransaction() throws SQLException {
        Optional<Integer> rows = locks.callIfFree(transactions, KEY, status -> {
            assertFalse(otherSessionGetsUnchecked());
            return jdbc.update("INSERT INTO spring_tx_log (job_name) VALUES (?)", "ran");
        });
        assertEquals(Optional.of(1), rows);
        assertTrue(otherSessionGets());
    }

    @Test
    void callIfFreeIsEmptyWhileAnotherSessionHoldsTheLock() throws SQLException {
        int before = count();
        AtomicBoolean ran = new AtomicBoolean();
        try (Connection holder = TestDatabase.connect()) {
            holder.createStatement().execute("SELECT pg_advisory_lock(100, 11)");
            Optional<Integer> rows = locks.callIfFree(transactions, KEY, status -> {
                ran.set(true);
                return jdbc.update("INSERT INTO spring_tx_log (job_name) VALUES (?)", "must not run");
            });
            assertEquals(Optional.empty(), rows);
            assertFalse(locks.runIfFree(transactions, KEY, status -> ran.set(true)));
        }
        assertFalse(ran.get());
        assertEquals(before, count());
    }

    @Test
    void callIfFreeRefusesANullResultAndRollsBack() {
        int before = count();
        assertThrows(InvalidArgumentException.class, () -> locks.callIfFree(transactions, KEY, status -> {
            jdbc.update("INSERT INTO spring_tx_log (job_name) VALUES (?)", "rolled back");
            return null;
        }));
        assertEquals(before, count());
    }

    private static int count() {
        return jdbc.queryForObject("SELECT count(*) FROM spring_tx_log", Integer.class);
    }

    private static boolean otherSessionGets() throws SQLException {
        return TestDatabase.ask(OTHER_SESSION_TRIES);
    }

    private static boolean otherSessionGetsUnchecked() {
        try {
            return otherSessionGets();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
