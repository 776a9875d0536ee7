package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * close() from any thread, and the garbage collector as the last owner: the C ABI ends waits and
 * answers every later call with MisuseException; Java keeps no closed flag of its own. The
 * 60-second bounds turn a hang into a failure; nothing asserts how long anything takes.
 */
class CloseTest {
    private static final String URL = TestPostgres.url();

    @Test
    void closeFromAnotherThreadEndsAServerWaitWithMisuse() throws Exception {
        Key key = Key.pair(810, 1);
        try (LockSession holder = LockSession.open(URL)) {
            holder.tryLock(key).orElseThrow();
            LockSession waiter = LockSession.open(URL);
            long pid = waiter.serverId();
            CompletableFuture<Lock> waiting = CompletableFuture.supplyAsync(() -> waiter.lock(key, null));
            awaitServerWait(pid);
            waiter.close();
            Throwable cause = assertThrows(ExecutionException.class, () -> waiting.get(60, TimeUnit.SECONDS))
                    .getCause();
            // The core's answer: the session was closed under the wait (not a cancel the caller asked for).
            assertInstanceOf(MisuseException.class, cause);
            assertTrue(cause.getMessage().contains("closed"), cause.getMessage());
            assertTrue(waiter.isClosed());
            LockSessionTest.awaitHolders(key, 1);  // the waiter left the server; the holder still holds
            assertEveryCallIsMisuse(waiter, key);
        }
    }

    @Test
    void everyCallAfterCloseIsMisuseLocksToo() {
        LockSession session = LockSession.open(URL);
        Key key = Key.pair(810, 2);
        Lock lock = session.tryLock(key).orElseThrow();
        assertFalse(session.isClosed());
        session.close();
        session.close();  // twice is fine
        assertTrue(session.isClosed());
        assertEveryCallIsMisuse(session, key);
        assertThrows(MisuseException.class, lock::release);
        assertThrows(MisuseException.class, lock::ensureHeld);
        assertThrows(MisuseException.class, lock::verify);
        assertFalse(lock.isHeld());
        lock.close();  // released by the close: nothing left to do
    }

    @Test
    void closeEndsTheLostListenersThread() throws Exception {
        LockSession session = LockSession.open(URL);
        Set<Thread> before = watchers();
        List<String> told = new CopyOnWriteArrayList<>();
        session.addLostListener((s, why) -> told.add(why));
        Set<Thread> mine = watchers();
        mine.removeAll(before);
        assertEquals(1, mine.size(), "one watcher thread for the session");
        session.close();
        Thread watcher = mine.iterator().next();
        watcher.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(watcher.isAlive(), "the watcher still waits after close");
        assertEquals(List.of(), told, "a close is no loss");
    }

    @Test
    void callsRacingACloseOnOtherThreadsEndInMisuse() throws Exception {
        LockSession session = LockSession.open(URL);
        int threads = 4;
        CountDownLatch running = new CountDownLatch(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Key key = Key.pair(811, t);
                workers.add(pool.submit(() -> {
                    for (boolean first = true;; first = false) {
                        session.tryLock(key).ifPresent(lock -> {
                            lock.ensureHeld();
                            session.holders(key);
                            lock.release();
                        });
                        if (first) running.countDown();
                    }
                }));
            }
            assertTrue(running.await(60, TimeUnit.SECONDS));
            session.close();
            for (Future<?> worker : workers) {
                Throwable cause = assertThrows(ExecutionException.class, () -> worker.get(60, TimeUnit.SECONDS))
                        .getCause();
                assertInstanceOf(MisuseException.class, cause);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSessionNeverClosedIsClosedByTheGarbageCollector() throws Exception {
        LockSession session = LockSession.open(URL);
        long pid = session.serverId();
        WeakReference<LockSession> dropped = new WeakReference<>(session);
        session = null;  // the last reference: its native session is freed, which closes it
        collect(dropped);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (connected(pid)) {
            if (System.nanoTime() > deadline) throw new AssertionError("backend " + pid + " still connected");
            Thread.sleep(10);
        }
    }

    @Test
    void aLockDroppedWhileItsSessionWaitsIsReleasedWithoutBlockingTheCollector() throws Exception {
        Key dropped = Key.pair(813, 1);
        Key contended = Key.pair(813, 2);
        try (LockSession holder = LockSession.open(URL); LockSession session = LockSession.open(URL)) {
            Lock held = holder.tryLock(contended).orElseThrow();
            WeakReference<Lock> lock = new WeakReference<>(session.tryLock(dropped).orElseThrow());
            long pid = session.serverId();
            CompletableFuture<Lock> waiting = CompletableFuture.supplyAsync(() -> session.lock(contended, null));
            awaitServerWait(pid);
            // The Lock's free runs on the finalizer thread while the wait holds the connection: it
            // must hand the release over, not wait for the connection.
            collect(lock);
            held.release();
            waiting.get(60, TimeUnit.SECONDS).release();
            LockSessionTest.awaitHolders(dropped, 0);
        }
    }

    private static boolean connected(long pid) throws Exception {
        try (var c = TestPostgres.jdbc(); var rows = c.createStatement().executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid)) {
            rows.next();
            return rows.getInt(1) == 1;
        }
    }

    /** Collects until the referent is gone, then runs the finalizers (SWIG's frees), bounded. */
    private static void collect(WeakReference<?> referent) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (referent.get() != null) {
            if (System.nanoTime() > deadline) throw new AssertionError("never collected");
            System.gc();
            Thread.sleep(10);
        }
        assertNull(referent.get());
        Thread finalizing = new Thread(() -> {
            System.runFinalization();
            System.runFinalization();
        });
        finalizing.start();
        finalizing.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(finalizing.isAlive(), "a native free blocked the finalizer");
    }

    private static void assertEveryCallIsMisuse(LockSession session, Key key) {
        List<Executable> calls = List.of(() -> session.tryLock(key), () -> session.lock(key, Duration.ZERO),
                () -> session.lock(key, null), session::check, session::verify, session::holders,
                () -> session.addLostListener((s, why) -> { }));
        for (int i = 0; i < calls.size(); i++) {
            MisuseException e = assertThrows(MisuseException.class, calls.get(i), "call " + i + " after close");
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
        }
        // The C ABI's two exceptions: a cancel has no wait left to end, the server id stays known.
        session.cancel();
        assertTrue(session.serverId() > 0);
    }

    private static Set<Thread> watchers() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("advlock-lost-watch"))
                .collect(Collectors.toSet());
    }

    /** Until the backend waits on the server for an advisory lock (pg_locks), never by a fixed sleep. */
    private static void awaitServerWait(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (var c = TestPostgres.jdbc(); var rows = c.createStatement().executeQuery(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = " + pid)) {
                rows.next();
                if (rows.getInt(1) == 1) return;
            }
            if (System.nanoTime() > deadline) throw new AssertionError("backend " + pid + " never waited");
            Thread.sleep(10);
        }
    }
}
