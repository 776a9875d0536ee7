package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Thread.interrupt() ends a lock() wait (CanceledException caused by InterruptedException, the
 * flag left set), on the server and in the process alike, and never leaves a lock behind; so
 * ExecutorService.shutdownNow() ends tasks blocked in lock().
 */
class InterruptTest {
    private static final String URL = TestPostgres.url();

    /** What a task saw: the exception lock() threw, and its interrupt flag right after. */
    private static final class Outcome {
        final Throwable thrown;
        final boolean flagSet;

        Outcome(Throwable thrown, boolean flagSet) {
            this.thrown = thrown;
            this.flagSet = flagSet;
        }
    }

    private static Outcome lockOutcome(LockSession session, Key key) {
        try (Lock lock = session.lock(key, null)) {
            return new Outcome(null, Thread.currentThread().isInterrupted());
        } catch (RuntimeException e) {
            return new Outcome(e, Thread.currentThread().isInterrupted());
        }
    }

    private static void assertInterrupted(Outcome outcome) {
        CanceledException e = assertInstanceOf(CanceledException.class, outcome.thrown);
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertTrue(e.getMessage().contains("interrupted"), e.getMessage());
        assertTrue(outcome.flagSet, "the interrupt flag stays set");
    }

    /** Until the backend waits on the server for an advisory lock (pg_locks), never by a fixed sleep. */
    private static void awaitServerWait(long pid) throws Exception {
        while (true) {
            try (var c = TestPostgres.jdbc(); var rows = c.createStatement().executeQuery(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = " + pid)) {
                rows.next();
                if (rows.getInt(1) == 1) return;
            }
            Thread.sleep(10);
        }
    }

    @Test
    void interruptEndsAServerWait() throws Exception {
        Key key = Key.pair(800, 1);
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock(key).orElseThrow();
            long pid = waiter.serverId();
            CompletableFuture<Outcome> outcome = new CompletableFuture<>();
            Thread thread = new Thread(() -> outcome.complete(lockOutcome(waiter, key)));
            thread.start();
            awaitServerWait(pid);
            thread.interrupt();
            assertInterrupted(outcome.get(60, TimeUnit.SECONDS));
            held.release();
            assertEquals(List.of(), TestPostgres.holders(key), "the interrupted wait left no lock behind");
            waiter.tryLock(key).orElseThrow().release();  // and the session is fine
        }
    }

    @Test
    void anInterruptedThreadIsRefusedAtOnceButTryLockIgnoresTheFlag() {
        Key key = Key.pair(800, 2);
        try (LockSession session = LockSession.open(URL)) {
            Thread.currentThread().interrupt();
            try {
                assertInterrupted(lockOutcome(session, key));
                assertTrue(Thread.currentThread().isInterrupted());
                try (Lock lock = session.tryLock(key).orElseThrow()) {  // a try does not wait: not interruptible
                    assertTrue(Thread.currentThread().isInterrupted(), "tryLock leaves the flag alone");
                }
            } finally {
                Thread.interrupted();
            }
        }
    }

    @Test
    void shutdownNowEndsTasksBlockedInLock() throws Exception {
        Key key = Key.pair(800, 3);
        int tasks = 4;
        try (LockSession holder = LockSession.open(URL); LockSession shared = LockSession.open(URL)) {
            Lock held = holder.tryLock(key).orElseThrow();
            long pid = shared.serverId();
            // One of the other session's Locks holds a second key in the process: tasks wait there too.
            Key local = Key.pair(800, 4);
            Lock localHeld = shared.tryLock(local).orElseThrow();
            ExecutorService pool = Executors.newFixedThreadPool(tasks);
            CountDownLatch started = new CountDownLatch(tasks);
            List<Future<Outcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < tasks; i++) {
                Key k = i % 2 == 0 ? key : local;
                outcomes.add(pool.submit(() -> {
                    started.countDown();
                    return lockOutcome(shared, k);
                }));
            }
            started.await();
            awaitServerWait(pid);  // at least one task waits on the server
            assertEquals(List.of(), pool.shutdownNow(), "no task was still queued");
            assertTrue(pool.awaitTermination(60, TimeUnit.SECONDS), "shutdownNow ended the waits");
            for (Future<Outcome> f : outcomes) assertInterrupted(f.get());
            localHeld.release();
            held.release();
            assertEquals(List.of(), TestPostgres.holders(key));
            assertEquals(List.of(), TestPostgres.holders(local));
            try (LockSession other = LockSession.open(URL)) {
                other.tryLock(key).orElseThrow();
                other.tryLock(local).orElseThrow();
            }
        }
    }

    @Test
    void cancelStillEndsEveryWaitWithoutTheFlag() throws Exception {
        Key key = Key.pair(800, 5);
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            holder.tryLock(key).orElseThrow();
            long pid = waiter.serverId();
            CompletableFuture<Outcome> outcome = CompletableFuture.supplyAsync(() -> lockOutcome(waiter, key));
            awaitServerWait(pid);
            waiter.cancel();
            Outcome o = outcome.get(60, TimeUnit.SECONDS);
            CanceledException e = assertInstanceOf(CanceledException.class, o.thrown);
            assertTrue(!(e.getCause() instanceof InterruptedException) && !o.flagSet, String.valueOf(e));
        }
    }
}
