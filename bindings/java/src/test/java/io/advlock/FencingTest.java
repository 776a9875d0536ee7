package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Fencing tokens: LockOptions.fenced, Lock.fenceToken and Lock.checkFence on a pgjdbc connection. */
class FencingTest {
    private static final String URL = TestPostgres.url();
    private static final Key KEY = Key.pair(4201, 1);

    @BeforeAll
    static void createTheFenceTable() throws SQLException {
        try (Connection conn = TestPostgres.jdbc(); Statement statement = conn.createStatement()) {
            statement.execute(Fencing.sql());  // idempotent: both JUnit runs of test-java.sh share the server
        }
    }

    @Test
    void everyGrantIssuesAGreaterToken() {
        try (LockSession session = LockSession.open(URL)) {
            long previous = Long.MIN_VALUE;
            for (int i = 0; i < 3; i++) {
                try (Lock lock = i == 2 ? session.lock(KEY, Duration.ofSeconds(60), LockOptions.defaults().fenced())
                        : session.tryLock(KEY, LockOptions.defaults().fenced()).orElseThrow()) {
                    assertTrue(lock.fenceToken() > previous, lock.fenceToken() + " after " + previous);
                    previous = lock.fenceToken();
                }
            }
        }
    }

    @Test
    void aCheckedTransactionHoldsOffTheNextHolderUntilItCommits() throws Exception {
        try (LockSession first = LockSession.open(URL); LockSession next = LockSession.open(URL);
                Connection job = TestPostgres.jdbc()) {
            Lock lock = first.tryLock(KEY, LockOptions.defaults().fenced()).orElseThrow();
            job.setAutoCommit(false);
            lock.checkFence(job);
            lock.release();
            assertTrue(next.tryLock(KEY, LockOptions.defaults().fenced()).isEmpty(),
                    "the next token waits for the checked transaction");
            job.commit();
            try (Lock newer = next.tryLock(KEY, LockOptions.defaults().fenced()).orElseThrow()) {
                assertTrue(newer.fenceToken() > lock.fenceToken());
            }
        }
    }

    @Test
    void aHolderThatLostTheLockIsFencedOut() throws Exception {
        try (LockSession stale = LockSession.open(URL); LockSession next = LockSession.open(URL);
                Connection job = TestPostgres.jdbc()) {
            Lock lost = stale.tryLock(KEY, LockOptions.defaults().fenced()).orElseThrow();
            TestPostgres.terminate(stale.serverId());  // the server ends the session; the old job goes on
            try (Lock newer = next.lock(KEY, Duration.ofSeconds(60), LockOptions.defaults().fenced())) {
                job.setAutoCommit(false);
                FencedOutException e = assertThrows(FencedOutException.class, () -> lost.checkFence(job));
                assertInstanceOf(LockLostException.class, e);
                assertEquals("55T01", e.sqlstate());
                assertEquals("ADVLOCK_EFENCED", Statuses.nameOf(e.status()));
                assertInstanceOf(SQLException.class, e.getCause());
                job.rollback();
                newer.checkFence(job);  // the new holder's own check passes on the same connection
                job.commit();
            }
        }
    }

    @Test
    void misuse() throws Exception {
        try (LockSession session = LockSession.open(URL); Connection job = TestPostgres.jdbc()) {
            try (Lock fenced = session.tryLock(KEY, LockOptions.defaults().fenced()).orElseThrow()) {
                MisuseException e = assertThrows(MisuseException.class, () -> fenced.checkFence(job));
                assertTrue(e.getMessage().contains("auto-commit"), e.getMessage());
                assertThrows(InvalidArgumentException.class, () -> fenced.checkFence(null));
            }
            try (Lock plain = session.tryLock(KEY).orElseThrow()) {
                assertThrows(MisuseException.class, plain::fenceToken);
                job.setAutoCommit(false);
                assertThrows(MisuseException.class, () -> plain.checkFence(job));
                job.rollback();
            }
        }
    }

    @Test
    void localLocksCannotBeFenced() throws Exception {
        Path dir = Files.createTempDirectory("advlock-fence-local");
        try (LockSession session = LockSession.open("local:" + dir)) {
            assertThrows(UnsupportedException.class, () -> session.tryLock(KEY, LockOptions.defaults().fenced()));
            assertTrue(session.tryLock(KEY).isPresent(), "a refused fenced lock leaves nothing behind");
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : (Iterable<Path>) files::iterator) Files.delete(p);
            }
            Files.delete(dir);
        }
    }

    @Test
    void theDdlCreatesTheTable() throws SQLException {
        assertTrue(Fencing.sql().contains("advlock_fence"), Fencing.sql());
        try (Connection conn = TestPostgres.jdbc(); Statement statement = conn.createStatement();
                var rows = statement.executeQuery("SELECT to_regclass('public.advlock_fence') IS NOT NULL")) {
            rows.next();
            assertTrue(rows.getBoolean(1));
        }
    }
}
