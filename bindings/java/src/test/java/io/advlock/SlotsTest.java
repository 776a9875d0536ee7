package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Job slots ("at most N at once") through LockOptions.slots, on a real PostgreSQL. */
class SlotsTest {
    private static final String URL = TestPostgres.url();
    private static final Key EXPORT = Key.pair(4200, 3);

    @Test
    void threeHoldersFillThreeSlotsAndAWaiterGetsTheOneFreed() throws Exception {
        List<LockSession> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) sessions.add(LockSession.open(URL));
            List<Lock> held = new ArrayList<>();
            Set<Integer> slots = new TreeSet<>();
            for (int i = 0; i < 3; i++) {
                Lock lock = sessions.get(i).tryLock(EXPORT, LockOptions.defaults().slots(3)).orElseThrow();
                held.add(lock);
                slots.add(lock.slot());
                assertEquals(EXPORT, lock.key());
                assertEquals(EXPORT.slot(lock.slot()), lock.serverKey());
                assertEquals(List.of(sessions.get(i).serverId()), TestPostgres.holders(lock.serverKey()));
            }
            assertEquals(Set.of(1, 2, 3), slots, "three holders, three distinct slots");
            assertEquals(List.of(), TestPostgres.holders(EXPORT), "a slot lock never locks the key itself");

            LockSession fourth = sessions.get(3);
            assertTrue(fourth.tryLock(EXPORT, LockOptions.defaults().slots(3)).isEmpty(), "every slot is held");
            CompletableFuture<Lock> waiter =
                    CompletableFuture.supplyAsync(() -> fourth.lock(EXPORT, null, LockOptions.defaults().slots(3)));
            awaitWaitingOnTheServer(fourth.serverId());
            Lock freed = held.stream().filter(l -> l.slot() == 2).findFirst().orElseThrow();
            freed.release();
            try (Lock got = waiter.get(60, TimeUnit.SECONDS)) {  // the limit only turns a hang into a failure
                assertEquals(2, got.slot(), "the waiter takes the slot that freed");
                assertEquals(List.of(fourth.serverId()), TestPostgres.holders(EXPORT.slot(2)));
            }
        } finally {
            for (LockSession session : sessions) session.close();
        }
    }

    @Test
    void slotKeysFollowTheRulePsqlComputes() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); Statement statement = conn.createStatement()) {
            for (int slot : new int[] {1, 64}) {
                // advlock.h's frozen rule, as a psql user would write it.
                try (ResultSet rows = statement.executeQuery("SELECT ('x' || left(encode(sha256(convert_to("
                        + "'advlock-slot:' || '" + EXPORT + "' || '/' || " + slot + ", 'UTF8')), 'hex'), 16))"
                        + "::bit(64)::bigint")) {
                    rows.next();
                    assertEquals(rows.getLong(1), EXPORT.slot(slot).bigintValue(), "slot " + slot);
                }
            }
        }
    }

    @Test
    void badSlotValuesAreInvalidArguments() throws Exception {
        for (int n : new int[] {0, 65, -1}) {
            assertThrows(InvalidArgumentException.class, () -> EXPORT.slot(n), "Key.slot(" + n + ")");
        }
        try (LockSession session = LockSession.open(URL)) {
            for (int n : new int[] {65, -1, Integer.MIN_VALUE}) {
                assertThrows(InvalidArgumentException.class,
                        () -> session.tryLock(EXPORT, LockOptions.defaults().slots(n)), "slots(" + n + ")");
            }
            assertThrows(InvalidArgumentException.class,
                    () -> session.tryLock(EXPORT, LockOptions.defaults().slots(3).mode(Mode.SHARED)), "shared slots");
            assertEquals(List.of(), TestPostgres.holders(EXPORT.slot(1)), "a refused lock leaves nothing behind");
        }
    }

    /** Until pg_locks shows the session waiting for a lock (a slot's), so the release comes after. */
    private static void awaitWaitingOnTheServer(long pid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);  // turns a hang into a failure
        try (Connection conn = TestPostgres.jdbc(); Statement statement = conn.createStatement()) {
            while (true) {
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_locks WHERE locktype = "
                        + "'advisory' AND NOT granted AND pid = " + pid)) {
                    rows.next();
                    if (rows.getLong(1) > 0) return;
                }
                if (System.nanoTime() > deadline) throw new AssertionError("session " + pid + " never waited");
                Thread.sleep(10);
            }
        }
    }
}
