package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TransactionLocksTest {
    private static final String URL = TestPostgres.url();
    private static final Key KEY = Key.pair(500, 1);

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void lockEndsWithTheTransaction(boolean commit) throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            conn.setAutoCommit(false);
            assertTrue(TransactionLocks.tryLock(conn, KEY));
            assertEquals(1, TestPostgres.holders(KEY).size());
            assertTrue(session.tryLock(KEY).isEmpty());
            if (commit) conn.commit(); else conn.rollback();
            assertEquals(List.of(), TestPostgres.holders(KEY));
            assertTrue(session.tryLock(KEY).isPresent());
        }
    }

    @Test
    void heldElsewhereIsFalse() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            assertFalse(TransactionLocks.tryLock(conn, KEY));
            assertFalse(TransactionLocks.tryLock(conn, KEY, Mode.SHARED));
            conn.rollback();
        }
    }

    @Test
    void autoCommitIsMisuse() throws Exception {
        try (Connection conn = TestPostgres.jdbc()) {
            MisuseException e = assertThrows(MisuseException.class, () -> TransactionLocks.tryLock(conn, KEY));
            assertTrue(e.getMessage().contains("auto-commit"), e.getMessage());
        }
    }

    @Test
    void timedWaitThatRunsOutLeavesTheTransactionUsable() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            execute(conn, "SET LOCAL lock_timeout = '4321ms'");
            NotAcquiredException e = assertThrows(NotAcquiredException.class,
                    () -> TransactionLocks.lock(conn, KEY, Duration.ofMillis(100)));
            assertSqlCause(e, "55P03");
            assertEquals("55P03", e.sqlstate());
            assertEquals("4321ms", value(conn, "SELECT current_setting('lock_timeout')"));  // usable, as it was
            assertEquals(List.of(session.serverId()), TestPostgres.holders(KEY));  // none of conn's
            assertThrows(NotAcquiredException.class, () -> TransactionLocks.lock(conn, KEY, Duration.ZERO));
            assertEquals("4321ms", value(conn, "SELECT current_setting('lock_timeout')"));
            conn.commit();
        }
    }

    @Test
    void timedWaitIsGrantedAndRestoresLockTimeout() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            Lock held = session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            execute(conn, "SET LOCAL lock_timeout = '50ms'");
            long pid = Long.parseLong(value(conn, "SELECT pg_backend_pid()"));
            CompletableFuture<Void> waiting = CompletableFuture.runAsync(
                    () -> TransactionLocks.lock(conn, KEY, null, Mode.EXCLUSIVE));  // longer than the 50 ms
            awaitWaiter(pid);
            held.release();
            waiting.get(60, TimeUnit.SECONDS);
            assertEquals(List.of(pid), TestPostgres.holders(KEY));
            assertEquals("50ms", value(conn, "SELECT current_setting('lock_timeout')"));
            conn.rollback();
            assertEquals(List.of(), TestPostgres.holders(KEY));
        }
    }

    @Test
    void untimedWaitEndedByTheTransactionsLockTimeoutIsNotAcquired() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            execute(conn, "SET LOCAL lock_timeout = '100ms'");
            NotAcquiredException e = assertThrows(NotAcquiredException.class,
                    () -> TransactionLocks.lock(conn, KEY, Mode.EXCLUSIVE));
            assertSqlCause(e, "55P03");
            assertTrue(e.getMessage().contains("roll it back"), e.getMessage());
            conn.rollback();
        }
    }

    @Test
    void statementCancelIsCanceled() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            execute(conn, "SET LOCAL statement_timeout = '100ms'");
            CanceledException e = assertThrows(CanceledException.class,
                    () -> TransactionLocks.lock(conn, KEY, Mode.SHARED));
            assertSqlCause(e, "57014");
            conn.rollback();
            // In a timed wait the cancel rolls back to the savepoint: the transaction goes on.
            execute(conn, "SET LOCAL statement_timeout = '100ms'");
            e = assertThrows(CanceledException.class, () -> TransactionLocks.lock(conn, KEY, Duration.ofHours(1)));
            assertSqlCause(e, "57014");
            assertEquals("1", value(conn, "SELECT 1"));
            conn.rollback();
        }
    }

    @Test
    void deadlockIsDeadlockException() throws Exception {
        Key other = Key.pair(500, 2);
        // Two threads of its own: both waits must block at once, and since Java 25 runAsync's
        // default pool may run them one after the other (one thread when there are 2 CPUs).
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (Connection a = TestPostgres.jdbc(); Connection b = TestPostgres.jdbc()) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            assertTrue(TransactionLocks.tryLock(a, KEY));
            assertTrue(TransactionLocks.tryLock(b, other));
            long aPid = Long.parseLong(value(a, "SELECT pg_backend_pid()"));
            CompletableFuture<Void> aWaits = CompletableFuture.runAsync(() -> lockOrRollBack(a, other), threads);
            awaitWaiter(aPid);
            CompletableFuture<Void> bWaits = CompletableFuture.runAsync(() -> lockOrRollBack(b, KEY), threads);
            // The server breaks the cycle: one of the two gets 40P01, its rollback lets the other in.
            List<Throwable> failures = new ArrayList<>();
            for (CompletableFuture<Void> wait : List.of(aWaits, bWaits)) {
                try {
                    wait.get(60, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
            assertEquals(1, failures.size(), failures.toString());
            DeadlockException e = assertInstanceOf(DeadlockException.class, failures.get(0));
            assertSqlCause(e, "40P01");
            a.rollback();
            b.rollback();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void revokedExecuteIsPermissionDenied() throws Exception {
        String revoke = "REVOKE EXECUTE ON FUNCTION pg_catalog.pg_try_advisory_xact_lock(integer, integer) FROM PUBLIC";
        try (Connection admin = TestPostgres.jdbc()) {
            execute(admin, "DROP ROLE IF EXISTS advlock_no_exec");
            execute(admin, "CREATE ROLE advlock_no_exec LOGIN PASSWORD 'no-exec'");
            execute(admin, revoke);
            try (Connection conn = TestPostgres.jdbc("advlock_no_exec", "no-exec")) {
                conn.setAutoCommit(false);
                PermissionDeniedException e = assertThrows(PermissionDeniedException.class,
                        () -> TransactionLocks.tryLock(conn, KEY));
                assertSqlCause(e, "42501");
                assertTrue(e.getMessage().contains("permission denied"), e.getMessage());  // the server's words
                conn.rollback();
            } finally {
                execute(admin, revoke.replace("REVOKE", "GRANT").replace("FROM", "TO"));
                execute(admin, "DROP ROLE advlock_no_exec");
            }
        }
    }

    private static void lockOrRollBack(Connection conn, Key key) {
        try {
            TransactionLocks.lock(conn, key, Mode.EXCLUSIVE);
        } catch (DeadlockException e) {
            try {
                conn.rollback();
            } catch (SQLException rollback) {
                e.addSuppressed(rollback);
            }
            throw e;
        }
    }

    private static void assertSqlCause(AdvlockException e, String sqlstate) {
        SQLException cause = assertInstanceOf(SQLException.class, e.getCause(), "cause of " + e);
        assertEquals(sqlstate, cause.getSQLState());
        assertEquals(sqlstate, e.sqlstate());
    }

    /** Until the backend pid waits for an advisory lock (pg_locks), never by a fixed sleep. */
    private static void awaitWaiter(long pid) throws Exception {
        try (Connection c = TestPostgres.jdbc()) {
            while (!value(c, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = "
                    + pid).equals("1")) {
                Thread.sleep(10);
            }
        }
    }

    private static void execute(Connection conn, String sql) throws SQLException {
        try (Statement statement = conn.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String value(Connection conn, String sql) throws SQLException {
        try (Statement statement = conn.createStatement(); var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
