package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LockSessionTest {
    private static final String URL = TestPostgres.url();

    private static Process secondJvm(Key key) throws Exception {
        return new ProcessBuilder(ChildJvm.command(HoldLockMain.class, URL, key.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    @Test
    void anotherJvmHoldingTheLockExcludesThisOne() throws Exception {
        Key key = Key.pair(100, 1);
        Process other = secondJvm(key);
        BufferedReader out = new BufferedReader(new InputStreamReader(other.getInputStream()));
        try (LockSession session = LockSession.open(URL)) {
            String[] line = out.readLine().split(" ");
            assertEquals("held", line[0]);
            assertEquals(List.of(Long.parseLong(line[1])), TestPostgres.holders(key));
            assertTrue(session.tryLock(key).isEmpty());
            Holders holders = session.holders(key);
            assertEquals(1, holders.size());
            assertEquals("", holders.note());  // pg_locks shows holders and waiters alike
            assertEquals("second-jvm", holders.get(0).applicationName().orElseThrow());
            assertFalse(holders.get(0).isSelf());
            try (OutputStream in = other.getOutputStream()) {
                in.write('\n');
            }
            assertTrue(other.waitFor(60, TimeUnit.SECONDS));
            awaitHolders(key, 0);  // the server frees a closed connection's locks on its own time
            try (Lock lock = session.tryLock(key).orElseThrow()) {
                assertTrue(lock.isHeld());
                assertEquals(List.of(session.serverId()), TestPostgres.holders(key));
            }
            assertEquals(List.of(), TestPostgres.holders(key));
        } finally {
            other.destroyForcibly();
        }
    }

    @Test
    void timedWaitThrowsNotAcquired() {
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock("timeouts").orElseThrow();
            NotAcquiredException e = assertThrows(NotAcquiredException.class,
                    () -> waiter.lock("timeouts", Duration.ofMillis(200)));
            assertEquals("ADVLOCK_NOT_ACQUIRED", Statuses.nameOf(e.status()));
            held.release();
            try (Lock lock = waiter.lock("timeouts", Duration.ofSeconds(30))) {
                lock.ensureHeld();
                lock.verify(true);
            }
        }
    }

    @Test
    void waitIsGrantedOnReleaseAndCancelInterruptsIt() throws Exception {
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock(Key.bigint(77)).orElseThrow();
            CompletableFuture<Lock> granted = CompletableFuture.supplyAsync(() -> waiter.lock(Key.bigint(77), null));
            waitForWaiter(holder, Key.bigint(77));
            held.release();
            granted.get(60, TimeUnit.SECONDS).release();

            held = holder.tryLock(Key.bigint(77)).orElseThrow();
            CompletableFuture<Lock> canceled = CompletableFuture.supplyAsync(() -> waiter.lock(Key.bigint(77), null));
            waitForWaiter(holder, Key.bigint(77));
            waiter.cancel();
            Throwable cause = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> canceled.get(60, TimeUnit.SECONDS)).getCause();
            assertInstanceOf(CanceledException.class, cause);
            assertTrue(held.isHeld());
        }
    }

    @Test
    void sharedLocks() {
        try (LockSession a = LockSession.open(URL); LockSession b = LockSession.open(URL)) {
            Lock first = a.tryLock(Key.fromName("report"), Mode.SHARED).orElseThrow();
            assertTrue(b.tryLock(Key.fromName("report"), Mode.SHARED).isPresent());
            assertTrue(b.tryLock(Key.fromName("report"), Mode.EXCLUSIVE).isEmpty());
            assertEquals(Mode.SHARED, first.mode());
        }
    }

    @Test
    void registryNamesOnTheSession() {
        Registry registry = Registry.parse("[locks.daily_sales]\nkey = [100, 2]\n", "registry.toml");
        try (LockSession session = LockSession.open(URL, SessionOptions.defaults().registry(registry))) {
            Lock lock = session.tryLock("daily_sales").orElseThrow();
            assertEquals(Key.pair(100, 2), lock.key());
            assertEquals("daily_sales", session.holders(Key.pair(100, 2)).get(0).lockName().orElseThrow());
            assertThrows(NotFoundException.class, () -> session.tryLock("daily_sale"));
        }
    }

    @Test
    void misuseAndBadInputAreClearErrors() {
        LockSession session = LockSession.open(URL);
        Lock lock = session.tryLock(Key.bigint(5)).orElseThrow();
        lock.release();
        assertThrows(MisuseException.class, lock::release);
        assertThrows(MisuseException.class, lock::ensureHeld);
        lock.close();  // already released: nothing to do
        assertThrows(InvalidArgumentException.class, () -> session.tryLock((Key) null));
        assertThrows(InvalidArgumentException.class, () -> session.lock(Key.bigint(5), Duration.ofMillis(-1)));
        session.close();
        session.close();  // twice is fine
        MisuseException e = assertThrows(MisuseException.class, () -> session.tryLock(Key.bigint(5)));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(MisuseException.class, session::verify);
        assertThrows(MisuseException.class, () -> session.addLostListener((s, why) -> { }));
    }

    @Test
    void locksStillOpenWhenTheSessionClosesAreReleased() throws Exception {
        Lock lock;
        try (LockSession session = LockSession.open(URL)) {
            lock = session.tryLock(Key.bigint(6)).orElseThrow();
        }
        assertFalse(lock.isHeld());
        lock.close();  // the session is gone: nothing left to do
        awaitHolders(Key.bigint(6), 0);
    }

    @Test
    void unreachableServerAndPasswordsInMessages() {
        ConnectException e = assertThrows(ConnectException.class,
                () -> LockSession.open("postgresql://someone:s3cret-pw@127.0.0.1:1/db"));
        assertFalse(e.getMessage().contains("s3cret-pw"), e.getMessage());
    }

    @Test
    void readOnlyTargetIsRefusedUnlessAllowed() {
        String readOnly = URL + (URL.contains("?") ? "&" : "?") + "options=-c%20default_transaction_read_only%3Don";
        UnsafeTargetException e = assertThrows(UnsafeTargetException.class, () -> LockSession.open(readOnly));
        assertInstanceOf(ReadOnlyTargetException.class, e);
        try (LockSession session = LockSession.open(readOnly, SessionOptions.defaults().allowStandby(true))) {
            assertTrue(session.tryLock("read_only_ok").isPresent());
        }
    }

    @Test
    void lockDirectoryOthersMayWriteIsRefused() throws Exception {
        java.nio.file.Path shared = java.nio.file.Files.createTempDirectory("advlock-everyone");
        try {
            // Writable by all, not sticky: anyone could swap its lock files.
            java.nio.file.Files.setPosixFilePermissions(shared,
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            UnsafeTargetException e = assertThrows(UnsafeTargetException.class,
                    () -> LockSession.open("local:" + shared));
            assertInstanceOf(UnsafeLockDirectoryException.class, e);
            assertEquals("ADVLOCK_EUNSAFEDIR", Statuses.nameOf(e.status()));
            assertTrue(e.getMessage().contains("chmod o-w"), e.getMessage());
            assertEquals("rwxrwxrwx", java.nio.file.attribute.PosixFilePermissions.toString(
                    java.nio.file.Files.getPosixFilePermissions(shared)), "advlock never changes a directory it did not make");
        } finally {
            java.nio.file.Files.delete(shared);
        }
    }

    @Test
    void oneSessionFromManyThreads() throws Exception {
        // Four threads of its own: since Java 25 runAsync's default pool may be one thread.
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(4);
        try (LockSession session = LockSession.open(URL)) {
            List<CompletableFuture<Void>> workers = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int id = t;
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 50; i++) {
                        Optional<Lock> lock = session.tryLock(Key.pair(900, id));
                        lock.orElseThrow().release();
                    }
                }, threads));
            }
            for (CompletableFuture<Void> w : workers) w.get(120, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
    }

    /** Polls pg_locks until count sessions hold key; turns a hang into a failure, asserts no timing. */
    static void awaitHolders(Key key, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (TestPostgres.holders(key).size() != count) {
            if (System.nanoTime() > deadline) throw new AssertionError(count + " holders of " + key + " never seen");
            Thread.sleep(10);
        }
    }

    static void waitForWaiter(LockSession observer, Key key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);  // turns a hang into a failure
        while (observer.holders(key).stream().allMatch(Holder::isGranted)) {
            if (System.nanoTime() > deadline) throw new AssertionError("no waiter appeared for " + key);
            Thread.sleep(10);
        }
    }
}
