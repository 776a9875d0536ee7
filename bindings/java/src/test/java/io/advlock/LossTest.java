package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LossTest {
    private static final String URL = TestPostgres.url();

    @Test
    void terminatedBackendMeansLockLostAndListener() throws Exception {
        List<String> reasons = new CopyOnWriteArrayList<>();
        CountDownLatch told = new CountDownLatch(1);
        LockSession session = LockSession.open(URL);
        session.addLostListener((s, why) -> {
            reasons.add(why);
            told.countDown();
        });
        Lock lock = session.tryLock("doomed").orElseThrow();
        assertFalse(session.isLost());
        TestPostgres.terminate(session.serverId());
        assertTrue(told.await(30, TimeUnit.SECONDS), "the listener was never told");
        assertEquals(1, reasons.size());
        assertTrue(reasons.get(0).contains("terminat"), reasons.get(0));
        assertTrue(session.isLost());
        assertFalse(lock.isHeld());
        LockLostException e = assertThrows(LockLostException.class, lock::ensureHeld);
        assertEquals("ADVLOCK_ELOST", Statuses.nameOf(e.status()));
        assertThrows(LockLostException.class, () -> session.tryLock("another"));
        assertThrows(LockLostException.class, lock::close);  // try-with-resources reports the loss
        session.close();
        assertEquals(1, reasons.size());
    }

    @Test
    void listenerAddedAfterTheLossIsToldAtOnce() throws Exception {
        try (LockSession session = LockSession.open(URL)) {
            session.tryLock(Key.bigint(12)).orElseThrow();
            TestPostgres.terminate(session.serverId());
            assertThrows(LockLostException.class, session::verify);
            CountDownLatch told = new CountDownLatch(1);
            session.addLostListener((s, why) -> told.countDown());
            assertTrue(told.await(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void listenerMayCloseItsSession() throws Exception {
        LockSession session = LockSession.open(URL);
        CountDownLatch closed = new CountDownLatch(1);
        session.addLostListener((s, why) -> {
            s.close();
            closed.countDown();
        });
        TestPostgres.terminate(session.serverId());
        assertTrue(closed.await(30, TimeUnit.SECONDS));
        assertTrue(session.isClosed());
    }
}
