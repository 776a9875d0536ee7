package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One lock, one owner: threads sharing one LockSession (a thread pool's) exclude each other as
 * separate sessions would; re-entry only when asked for.
 */
class SharedSessionTest {
    private static final String URL = TestPostgres.url();
    private static final int THREADS = 8;
    private static final int ROUNDS = 40;

    /** Runs body on THREADS threads at once; rethrows the first failure. */
    private static void onThreads(Runnable body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    body.run();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Inside the lock: nobody else is; a little time for an overlap to show. */
    private static void critical(AtomicInteger inside, AtomicInteger overlaps) {
        if (inside.incrementAndGet() != 1) overlaps.incrementAndGet();
        Thread.yield();
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        inside.decrementAndGet();
    }

    /** Every backend: PostgreSQL, a local lock directory, and MySQL/MariaDB when the suite has one. */
    private static String backend(String name) throws Exception {
        switch (name) {
            case "postgres": return URL;
            case "local": return "local:" + Files.createTempDirectory("advlock-java-local.");
            default:
                String mysql = System.getenv("ADVLOCK_TEST_MYSQL_URL");
                Assumptions.assumeTrue(mysql != null && !mysql.isEmpty(), "ADVLOCK_TEST_MYSQL_URL is not set");
                return mysql;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "local", "mysql"})
    void eightThreadsWaitingOnOneSessionNeverOverlap(String backend) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        Key key = Key.fromName("shared-session-wait-" + ProcessHandle.current().pid());
        try (LockSession session = LockSession.open(backend(backend))) {
            onThreads(() -> {
                for (int i = 0; i < ROUNDS; i++) {
                    try (Lock lock = session.lock(key, null)) {
                        entries.incrementAndGet();
                        critical(inside, overlaps);
                    }
                }
            });
        }
        assertEquals(0, overlaps.get(), "threads held the lock at once");
        assertEquals(THREADS * ROUNDS, entries.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgres", "local", "mysql"})
    void eightThreadsTryingOnOneSessionNeverOverlap(String backend) throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger entries = new AtomicInteger();
        Key key = Key.fromName("shared-session-try-" + ProcessHandle.current().pid());
        try (LockSession session = LockSession.open(backend(backend))) {
            onThreads(() -> {
                for (int got = 0; got < ROUNDS;) {
                    Optional<Lock> lock = session.tryLock(key);
                    if (lock.isEmpty()) {
                        Thread.yield();
                        continue;
                    }
                    try (Lock held = lock.get()) {
                        got++;
                        entries.incrementAndGet();
                        critical(inside, overlaps);
                    }
                }
            });
        }
        assertEquals(0, overlaps.get(), "threads held the lock at once");
        assertEquals(THREADS * ROUNDS, entries.get());
    }

    @Test
    void aSecondLockOnOneThreadIsAnotherOwner() {
        Key key = Key.pair(700, 1);
        try (LockSession session = LockSession.open(URL)) {
            try (Lock first = session.tryLock(key).orElseThrow()) {
                assertTrue(session.tryLock(key).isEmpty(), "the same thread's second try");
                assertTrue(session.tryLock(key, Mode.SHARED).isEmpty(), "shared beside exclusive");
                // Waiting for a Lock this thread holds could never end.
                assertThrows(DeadlockException.class, () -> session.lock(key, null));
                assertTrue(first.isHeld());
            }
            try (Lock a = session.tryLock(key, Mode.SHARED).orElseThrow();
                 Lock b = session.tryLock(key, Mode.SHARED).orElseThrow()) {
                assertTrue(a.isHeld() && b.isHeld(), "shared locks never conflict");
            }
        }
    }

    @Test
    void reentrantOnlyWhenAskedAndOnlyForItsThread() throws Exception {
        Key key = Key.pair(700, 2);
        LockOptions reentrant = LockOptions.defaults().reentrant(true);
        try (LockSession session = LockSession.open(URL); LockSession other = LockSession.open(URL)) {
            Lock outer = session.tryLock(key, reentrant).orElseThrow();
            Lock inner = session.lock(key, null, reentrant);
            assertTrue(inner.isReentrant());
            assertEquals("Lock(700:2, reentrant)", inner.toString());
            assertTrue(session.tryLock(key).isEmpty(), "a non-reentrant lock of the same thread is another owner");
            boolean elsewhere = CompletableFuture.supplyAsync(() -> session.tryLock(key, reentrant).isPresent())
                    .get(60, TimeUnit.SECONDS);
            assertFalse(elsewhere, "another thread's reentrant lock is another owner");
            inner.release();
            assertTrue(other.tryLock(key).isEmpty(), "still held: each Lock releases once");
            outer.release();
            assertTrue(other.tryLock(key).isPresent());
        }
    }
}
