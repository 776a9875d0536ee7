package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Sets of locks, all or nothing, on a real PostgreSQL (checked in pg_locks from a JDBC connection
 * of its own): tryLockAll holds every key or none, lockAll waits until all are free at once, a
 * LockSet releases them together. The order that keeps overlapping sets from deadlocking is the
 * core's (tests/integration); here what the Java binding adds. Also SessionOptions.stopGrace.
 */
class LockSetTest {
    private static final String URL = TestPostgres.url();
    private static final Key DAILY = Key.pair(4300, 1);
    private static final Key INVENTORY = Key.pair(4300, 2);
    private static final Key LEDGER = Key.pair(4300, 3);

    @Test
    void aTryHoldsEveryKeyAndReleaseFreesThemAll() throws Exception {
        try (LockSession session = LockSession.open(URL)) {
            LockSet set = session.tryLockAll(List.of(INVENTORY, DAILY)).orElseThrow();
            assertEquals(List.of(INVENTORY, DAILY), set.keys(), "in the order asked");
            assertEquals(2, set.size());
            assertEquals(Mode.EXCLUSIVE, set.mode());
            assertFalse(set.isReentrant());
            assertEquals(session, set.session());
            assertEquals("LockSet(" + INVENTORY + ", " + DAILY + ")", set.toString());
            assertEquals(List.of(session.serverId()), TestPostgres.holders(DAILY));
            assertEquals(List.of(session.serverId()), TestPostgres.holders(INVENTORY));
            assertTrue(set.isHeld());
            set.ensureHeld();
            set.verify();
            set.verify(true);
            set.release();
            assertFalse(set.isHeld());
            assertEquals(List.of(), TestPostgres.holders(DAILY));
            assertEquals(List.of(), TestPostgres.holders(INVENTORY));
        }
    }

    @Test
    void aTryAgainstOneHeldKeyIsEmptyAndKeepsNoneOfTheFreeOnes() throws Exception {
        try (LockSession holder = LockSession.open(URL); LockSession other = LockSession.open(URL)) {
            Lock held = holder.tryLock(INVENTORY).orElseThrow();
            assertTrue(other.tryLockAll(List.of(DAILY, INVENTORY, LEDGER)).isEmpty());
            assertEquals(List.of(), TestPostgres.holders(DAILY), "all or nothing");
            assertEquals(List.of(), TestPostgres.holders(LEDGER), "all or nothing");
            NotAcquiredException e = assertThrows(NotAcquiredException.class,
                    () -> other.lockAll(List.of(DAILY, INVENTORY), Duration.ZERO));
            assertEquals("lock set of " + DAILY + ", " + INVENTORY + ": not all of them were free at once (none is "
                    + "held now) (no wait)", e.getMessage());
            assertEquals(List.of(), TestPostgres.holders(DAILY));
            held.release();
        }
    }

    @Test
    void lockAllWaitsUntilTheHolderReleasesThenHoldsThemAll() throws Exception {
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock(LEDGER).orElseThrow();
            CompletableFuture<LockSet> granted =
                    CompletableFuture.supplyAsync(() -> waiter.lockAll(List.of(LEDGER, DAILY), Duration.ofMinutes(5)));
            awaitWaitingOnTheServer(waiter.serverId());
            held.release();
            try (LockSet set = granted.get(60, TimeUnit.SECONDS)) {  // the limit only turns a hang into a failure
                assertEquals(List.of(LEDGER, DAILY), set.keys());
                assertEquals(List.of(waiter.serverId()), TestPostgres.holders(LEDGER));
                assertEquals(List.of(waiter.serverId()), TestPostgres.holders(DAILY));
            }
            assertEquals(List.of(), TestPostgres.holders(LEDGER), "try-with-resources released the set");
            assertEquals(List.of(), TestPostgres.holders(DAILY), "try-with-resources released the set");
        }
    }

    @Test
    void aTimedOutWaitThrowsNotAcquiredAndLeavesNothingHeld() throws Exception {
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock(DAILY).orElseThrow();
            NotAcquiredException e = assertThrows(NotAcquiredException.class,
                    () -> waiter.lockAll(List.of(INVENTORY, DAILY), Duration.ofMillis(200)));
            assertTrue(e.getMessage().contains("none is held now") && e.getMessage().contains("gave up after PT0.2S"),
                    e.getMessage());
            assertEquals(List.of(), TestPostgres.holders(INVENTORY));
            assertEquals(List.of(holder.serverId()), TestPostgres.holders(DAILY));
            assertEquals(0, waitingRows(waiter.serverId()));
            held.release();
        }
    }

    @Test
    void anInterruptEndsTheWaitWithNothingHeldOrWaiting() throws Exception {
        try (LockSession holder = LockSession.open(URL); LockSession waiter = LockSession.open(URL)) {
            Lock held = holder.tryLock(INVENTORY).orElseThrow();
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            CompletableFuture<Boolean> flagSet = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try (LockSet set = waiter.lockAll(List.of(DAILY, INVENTORY), null)) {
                    thrown.complete(null);
                } catch (RuntimeException e) {
                    thrown.complete(e);
                }
                flagSet.complete(Thread.currentThread().isInterrupted());
            });
            thread.start();
            awaitWaitingOnTheServer(waiter.serverId());
            thread.interrupt();
            CanceledException e = assertInstanceOf(CanceledException.class, thrown.get(60, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(e.getMessage().contains("set of " + DAILY + ", " + INVENTORY), e.getMessage());
            assertTrue(flagSet.get(60, TimeUnit.SECONDS), "the interrupt flag stays set");
            assertEquals(List.of(), TestPostgres.holders(DAILY), "the interrupted wait left no lock behind");
            assertEquals(0, waitingRows(waiter.serverId()), "nor a wait on the server");
            held.release();
            waiter.tryLockAll(List.of(DAILY, INVENTORY)).orElseThrow().release();  // and the session is fine
        }
    }

    @Test
    void anInterruptedThreadIsRefusedAtOnceButTryLockAllIgnoresTheFlag() throws Exception {
        try (LockSession session = LockSession.open(URL)) {
            Thread.currentThread().interrupt();
            try {
                CanceledException e = assertThrows(CanceledException.class,
                        () -> session.lockAll(List.of(DAILY, LEDGER), null));
                assertInstanceOf(InterruptedException.class, e.getCause());
                assertTrue(Thread.currentThread().isInterrupted());
                assertEquals(List.of(), TestPostgres.holders(DAILY));
                try (LockSet set = session.tryLockAll(List.of(DAILY, LEDGER)).orElseThrow()) {
                    assertTrue(Thread.currentThread().isInterrupted(), "tryLockAll leaves the flag alone");
                }
            } finally {
                Thread.interrupted();
            }
        }
    }

    @Test
    void theOwnerRuleHoldsForSetsOnASharedSession() throws Exception {
        try (LockSession session = LockSession.open(URL)) {
            try (LockSet set = session.tryLockAll(List.of(DAILY, INVENTORY)).orElseThrow()) {
                assertTrue(session.tryLockAll(List.of(INVENTORY, LEDGER)).isEmpty(), "a set is its own owner");
                assertTrue(CompletableFuture.supplyAsync(() -> session.tryLock(DAILY)).get(60, TimeUnit.SECONDS)
                        .isEmpty(), "another thread of the session is another owner");
                assertEquals(List.of(), TestPostgres.holders(LEDGER));
            }
            LockOptions reentrant = LockOptions.defaults().reentrant(true);
            try (LockSet first = session.tryLockAll(List.of(DAILY, INVENTORY), reentrant).orElseThrow();
                 LockSet again = session.tryLockAll(List.of(INVENTORY, DAILY), reentrant).orElseThrow()) {
                assertTrue(again.isReentrant());
                assertEquals("LockSet(" + INVENTORY + ", " + DAILY + ", reentrant)", again.toString());
                assertTrue(CompletableFuture.supplyAsync(() -> session.tryLockAll(List.of(DAILY), reentrant))
                        .get(60, TimeUnit.SECONDS).isEmpty(), "re-entry is the thread's only");
            }
            assertEquals(List.of(), TestPostgres.holders(DAILY));
        }
    }

    @Test
    void sharedSetsDoNotExcludeEachOtherButExcludeAnExclusiveOne() throws Exception {
        LockOptions shared = LockOptions.defaults().mode(Mode.SHARED);
        try (LockSession a = LockSession.open(URL); LockSession b = LockSession.open(URL);
             LockSession c = LockSession.open(URL)) {
            try (LockSet first = a.tryLockAll(List.of(DAILY, LEDGER), shared).orElseThrow();
                 LockSet second = b.tryLockAll(List.of(LEDGER, DAILY), shared).orElseThrow()) {
                assertEquals(Mode.SHARED, first.mode());
                assertTrue(first.toString().endsWith(", shared)"), first.toString());
                assertTrue(c.tryLockAll(List.of(DAILY)).isEmpty());
            }
            c.tryLockAll(List.of(DAILY)).orElseThrow().release();
        }
    }

    @Test
    void aSecondReleaseIsMisuseAndCloseAfterReleaseDoesNothing() throws Exception {
        try (LockSession session = LockSession.open(URL)) {
            LockSet set = session.tryLockAll(List.of(DAILY, INVENTORY)).orElseThrow();
            set.release();
            assertThrows(MisuseException.class, set::release);
            set.close();
            assertThrows(MisuseException.class, set::ensureHeld);
        }
    }

    @Test
    void closingTheSessionReleasesTheSetAndCloseOfTheSetIsThenQuiet() throws Exception {
        LockSession session = LockSession.open(URL);
        LockSet set = session.tryLockAll(List.of(DAILY, INVENTORY)).orElseThrow();
        session.close();
        assertFalse(set.isHeld());
        set.close();
        assertThrows(MisuseException.class, set::release);
        assertEquals(List.of(), TestPostgres.holders(DAILY));
    }

    @Test
    void badSetsAreRefusedAndLeaveNothingBehind() throws Exception {
        Key report = Key.fromName("report");
        try (LockSession session = LockSession.open(URL)) {
            assertThrows(InvalidArgumentException.class, () -> session.tryLockAll(List.of()), "empty");
            assertThrows(InvalidArgumentException.class, () -> session.lockAll(List.of(), null), "empty");
            assertThrows(InvalidArgumentException.class, () -> session.tryLockAll(List.of(DAILY, DAILY)), "twice");
            assertThrows(InvalidArgumentException.class,
                    () -> session.tryLockAll(List.of(report, Key.bigint(report.bigintValue()))),
                    "a name and its key are the same lock");
            assertTrue(assertThrows(InvalidArgumentException.class, () -> session.tryLockAll(null))
                    .getMessage().contains("keys is null"));
            assertTrue(assertThrows(InvalidArgumentException.class,
                    () -> session.lockAll(Arrays.asList(DAILY, null), null)).getMessage().contains("keys[1] is null"));
            assertThrows(InvalidArgumentException.class, () -> session.tryLockAll(List.of(DAILY), null), "options");
            // A set has no slots and no fencing token: the core says so.
            assertThrows(InvalidArgumentException.class,
                    () -> session.tryLockAll(List.of(DAILY, LEDGER), LockOptions.defaults().slots(3)));
            assertThrows(InvalidArgumentException.class,
                    () -> session.lockAll(List.of(DAILY, LEDGER), Duration.ofSeconds(1),
                            LockOptions.defaults().fenced()));
            assertEquals(List.of(), TestPostgres.holders(DAILY), "a refused set leaves nothing behind");
            assertEquals(List.of(), TestPostgres.holders(LEDGER), "a refused set leaves nothing behind");
        }
    }

    @Test
    void namesResolveAsForSingleLocks() throws Exception {
        try (Registry registry = Registry.parse("[locks.java_set_daily]\nkey = [4300, 4]\n\n"
                                                + "[locks.java_set_named]\ndescription = \"no key\"\n", "test.toml");
             LockSession session = LockSession.open(URL, SessionOptions.defaults().registry(registry))) {
            List<Key> keys = session.keysNamed("java_set_daily", "java_set_named");
            assertEquals(List.of(Key.pair(4300, 4), Key.fromName("java_set_named")), keys);
            assertThrows(NotFoundException.class, () -> session.keysNamed("java_set_daily", "java_set_unknown"));
            try (LockSet set = session.tryLockAll(keys).orElseThrow()) {
                assertEquals(List.of(session.serverId()), TestPostgres.holders(Key.pair(4300, 4)));
            }
        }
        try (LockSession session = LockSession.open(URL)) {  // no registry: advlock's name scheme
            assertEquals(List.of(Key.fromName("a"), Key.fromName("b")), session.keysNamed("a", "b"));
        }
    }

    @Test
    void stopGraceReachesTheCore() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> LockSession.open(URL, SessionOptions.defaults().stopGrace(Duration.ofSeconds(3601))));
        assertTrue(e.getMessage().contains("stop grace"), e.getMessage());
        assertThrows(InvalidArgumentException.class,
                () -> LockSession.open(URL, SessionOptions.defaults().stopGrace(Duration.ofSeconds(-1))));
        SessionOptions options = SessionOptions.defaults().stopGrace(Duration.ofSeconds(30));
        assertTrue(options.toString().contains("stopGrace=PT30S"), options.toString());
        try (LockSession session = LockSession.open(URL, options)) {
            session.tryLockAll(List.of(DAILY)).orElseThrow().release();
        }
    }

    /** Ungranted advisory rows of backend pid in pg_locks: its waits on the server. */
    private static long waitingRows(long pid) throws Exception {
        try (Connection conn = TestPostgres.jdbc(); Statement statement = conn.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
                     + "AND NOT granted AND pid = " + pid)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** Until pg_locks shows the session waiting, so what the test does next comes after the wait began. */
    private static void awaitWaitingOnTheServer(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);  // turns a hang into a failure
        while (waitingRows(pid) == 0) {
            if (System.nanoTime() > deadline) throw new AssertionError("session " + pid + " never waited");
            Thread.sleep(10);
        }
    }
}
