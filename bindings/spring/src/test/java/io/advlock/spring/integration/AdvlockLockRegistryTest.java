package io.advlock.spring.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.advlock.Key;
import io.advlock.LockLostException;
import io.advlock.SessionOptions;
import io.advlock.spring.KeyFree;
import io.advlock.spring.TestDatabase;
import java.math.BigInteger;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Two registries stand for two hosts; each has its own session on a real PostgreSQL. */
class AdvlockLockRegistryTest {
    private AdvlockLockRegistry here;
    private AdvlockLockRegistry there;

    @BeforeEach
    void open() {
        here = new AdvlockLockRegistry(TestDatabase.url());
        there = new AdvlockLockRegistry(TestDatabase.url());
    }

    @AfterEach
    void close() {
        here.close();
        there.close();
    }

    @Test
    void twoRegistriesExclude() throws Exception {
        Lock mine = here.obtain("registry_exclude");
        mine.lock();
        assertFalse(otherThread(() -> there.obtain("registry_exclude").tryLock()));
        mine.unlock();
        assertTrue(otherThread(() -> {
            Lock theirs = there.obtain("registry_exclude");
            boolean got = theirs.tryLock();
            if (got) theirs.unlock();
            return got;
        }));
    }

    @Test
    void reentrantInTheOwningThread() throws Exception {
        Lock lock = here.obtain("registry_reentry");
        lock.lock();
        assertTrue(here.obtain("registry_reentry").tryLock());  // a second obtain is the same lock
        lock.unlock();
        assertFalse(KeyFree.isFree(Key.fromName("registry_reentry")), "freed by the first of two unlocks");
        assertFalse(otherThread(() -> here.obtain("registry_reentry").tryLock()), "another thread got in");
        lock.unlock();
        assertTrue(KeyFree.isFree(Key.fromName("registry_reentry")));
        assertThrows(IllegalMonitorStateException.class, lock::unlock);
    }

    @Test
    void unlockFromAnotherThreadIsRefused() throws Exception {
        Lock lock = here.obtain("registry_wrong_thread");
        lock.lock();
        CompletableFuture<Void> foreign = CompletableFuture.runAsync(lock::unlock);
        assertInstanceOf(IllegalMonitorStateException.class, assertThrows(ExecutionException.class, foreign::get).getCause());
        assertFalse(KeyFree.isFree(Key.fromName("registry_wrong_thread")));
        lock.unlock();
    }

    @Test
    void tryLockWithATimeoutIsFalseWhileHeldElsewhere() throws Exception {
        Lock mine = here.obtain(7_001L);
        mine.lock();
        assertFalse(otherThread(() -> there.obtain(7_001L).tryLock(50, TimeUnit.MILLISECONDS)));
        mine.unlock();
    }

    @Test
    void interruptEndsAWait() throws Exception {
        Lock mine = here.obtain("registry_interrupt");
        mine.lock();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread waiter = new Thread(() -> {
            try {
                there.obtain("registry_interrupt").lockInterruptibly();
                outcome.set(new AssertionError("got a lock another registry holds"));
            } catch (Throwable e) {
                outcome.set(e);
            }
        });
        waiter.start();
        while (!TestDatabase.someoneWaits()) Thread.sleep(20);  // the wait is on the server now
        waiter.interrupt();
        waiter.join();
        assertInstanceOf(InterruptedException.class, outcome.get());
        mine.unlock();
    }

    @Test
    void keyTypes() throws Exception {
        assertHolds(here.obtain("registry_name"), Key.fromName("registry_name"));
        assertHolds(here.obtain(42L), Key.bigint(42));
        assertHolds(here.obtain(43), Key.bigint(43));
        assertHolds(here.obtain(BigInteger.valueOf(44)), Key.bigint(44));
        assertHolds(here.obtain(Key.pair(100, 9)), Key.pair(100, 9));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> here.obtain(1.5));
        assertTrue(refused.getMessage().contains("java.lang.Double"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> here.obtain(BigInteger.TWO.pow(64)));
        assertThrows(UnsupportedOperationException.class, () -> here.obtain("registry_name").newCondition());
    }

    @Test
    void unlockOfALostLockThrowsLockLost() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        try (AdvlockLockRegistry registry = new AdvlockLockRegistry(TestDatabase.url(),
                SessionOptions.defaults().heartbeatInterval(Duration.ofMillis(100)), (session, why) -> lost.countDown())) {
            Lock lock = registry.obtain("registry_lost");
            lock.lock();
            long killed = registry.serverId().getAsLong();
            TestDatabase.terminate(killed);
            assertTrue(lost.await(60, TimeUnit.SECONDS), "the loss was never noticed");
            assertThrows(LockLostException.class, lock::unlock);
            assertTrue(lock.tryLock(), "no lock on a new session after the loss");
            assertTrue(registry.serverId().getAsLong() != killed);
            lock.unlock();
        }
    }

    private static void assertHolds(Lock lock, Key key) throws Exception {
        lock.lock();
        try {
            assertFalse(KeyFree.isFree(key), lock + " does not hold " + key);
        } finally {
            lock.unlock();
        }
        assertTrue(KeyFree.isFree(key));
    }

    /** The answer of body on another thread: the thread is the owner a lock tells apart. */
    private static boolean otherThread(Body body) throws Exception {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                answer.complete(body.run());
            } catch (Throwable e) {
                answer.completeExceptionally(e);
            }
        });
        thread.start();
        return answer.get();
    }

    private interface Body {
        boolean run() throws Exception;
    }
}
