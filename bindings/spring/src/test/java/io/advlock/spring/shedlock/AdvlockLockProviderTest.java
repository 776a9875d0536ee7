package io.advlock.spring.shedlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.advlock.ConnectException;
import io.advlock.Key;
import io.advlock.LockLostException;
import io.advlock.MisuseException;
import io.advlock.spring.KeyFree;
import io.advlock.spring.TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/** ShedLock's own @SchedulerLock proxy on AdvlockLockProvider, two nodes on a real PostgreSQL. */
class AdvlockLockProviderTest {
    /** slf4j-simple's output: the pom points org.slf4j.simpleLogger.logFile here. */
    private static final Path LOG = Path.of(System.getProperty("org.slf4j.simpleLogger.logFile"));

    @Test
    void secondNodeSkipsWhileTheFirstRuns() throws Exception {
        try (AnnotationConfigApplicationContext first = ShedLockNode.start();
                AnnotationConfigApplicationContext second = ShedLockNode.start()) {
            ShedLockJobs running = first.getBean(ShedLockJobs.class);
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> call(running::hold));
            assertTrue(running.started().await(60, TimeUnit.SECONDS), "the first node's job never started");

            second.getBean(ShedLockJobs.class).hold();  // skipped by ShedLock: returns at once
            assertEquals(0, second.getBean(ShedLockJobs.class).runs());
            // The key is advlock's name key: `advlock run --name spring_test_hold` would skip too.
            assertFalse(KeyFree.isFree(Key.fromName("spring_test_hold")));

            running.finish().countDown();
            job.get();
            assertTrue(KeyFree.isFree(Key.fromName("spring_test_hold")));
        }
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterTheJobReturns() throws Exception {
        try (AnnotationConfigApplicationContext first = ShedLockNode.start();
                AnnotationConfigApplicationContext second = ShedLockNode.start()) {
            first.getBean(ShedLockJobs.class).atLeastAnHour();
            assertEquals(1, first.getBean(ShedLockJobs.class).runs());

            second.getBean(ShedLockJobs.class).atLeastAnHour();
            assertEquals(0, second.getBean(ShedLockJobs.class).runs(), "ran within the first run's lockAtLeastFor");

            first.close();  // the provider's close releases the kept lock at once
            second.getBean(ShedLockJobs.class).atLeastAnHour();
            assertEquals(1, second.getBean(ShedLockJobs.class).runs());
        }
    }

    @Test
    void theTimerReleasesTheLockOnceLockAtLeastForHasPassed() throws InterruptedException {
        try (AnnotationConfigApplicationContext node = ShedLockNode.start()) {
            node.getBean(ShedLockJobs.class).shortMinimum();
            // No time asserted: the lock is freed some time after its 0.2 s, by the provider's timer.
            while (!KeyFree.isFree(Key.fromName("spring_test_short_minimum"))) Thread.sleep(50);
            assertTrue(node.getBean(AdvlockLockProvider.class).serverId().isPresent(), "the session was closed instead");
        }
    }

    @Test
    void noLockAtLeastForFreesTheLockWhenTheJobReturns() {
        try (AnnotationConfigApplicationContext first = ShedLockNode.start();
                AnnotationConfigApplicationContext second = ShedLockNode.start()) {
            first.getBean(ShedLockJobs.class).noMinimum();
            second.getBean(ShedLockJobs.class).noMinimum();
            assertEquals(1, first.getBean(ShedLockJobs.class).runs());
            assertEquals(1, second.getBean(ShedLockJobs.class).runs());
        }
    }

    @Test
    void aLostLockReachesTheJobAndTheNextLockUsesANewSession() throws Exception {
        try (AnnotationConfigApplicationContext node = ShedLockNode.start()) {
            AdvlockLockProvider provider = node.getBean(AdvlockLockProvider.class);
            ShedLockJobs jobs = node.getBean(ShedLockJobs.class);
            CountDownLatch told = new CountDownLatch(1);
            provider.setLockLostListener((session, why) -> {
                told.countDown();
                jobs.lost().countDown();
            });
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> call(jobs::untilLost));
            assertTrue(jobs.started().await(60, TimeUnit.SECONDS), "the job never started");

            long killed = provider.serverId().getAsLong();
            TestDatabase.terminate(killed);
            assertTrue(told.await(60, TimeUnit.SECONDS), "the lost listener was never told");

            // The job saw the loss in its own thread, and ShedLock's unlock after it reported it too.
            Throwable unlock = assertThrows(ExecutionException.class, job::get).getCause();
            assertInstanceOf(LockLostException.class, unlock);
            assertNotNull(jobs.seenInJob(), "checkHeld() did not throw in the job");

            jobs.noMinimum();  // a new session, not the dead one
            assertEquals(2, jobs.runs());
            assertNotEquals(killed, provider.serverId().getAsLong());
        }
    }

    @Test
    void aJobPastLockAtMostForKeepsItsLockWithAWarning() throws Exception {
        String warning = "ShedLock job 'spring_test_overrun' has run past its lockAtMostFor (PT0.1S)";
        try (AnnotationConfigApplicationContext node = ShedLockNode.start()) {
            ShedLockJobs jobs = node.getBean(ShedLockJobs.class);
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> call(jobs::overrun));
            assertTrue(jobs.started().await(60, TimeUnit.SECONDS), "the job never started");
            while (!Files.readString(LOG).contains(warning)) Thread.sleep(50);  // the WARN, some time after 0.1 s
            assertFalse(KeyFree.isFree(Key.fromName("spring_test_overrun")), "released under a running job");
            jobs.finish().countDown();
            job.get();
            assertTrue(KeyFree.isFree(Key.fromName("spring_test_overrun")));
        }
    }

    @Test
    void theDefaultListenerLogsTheLostLocksName() throws Exception {
        try (AnnotationConfigApplicationContext node = ShedLockNode.start()) {
            ShedLockJobs jobs = node.getBean(ShedLockJobs.class);
            CompletableFuture<Void> job = CompletableFuture.runAsync(() -> call(jobs::holdUntilLogged));
            assertTrue(jobs.started().await(60, TimeUnit.SECONDS), "the job never started");
            TestDatabase.terminate(node.getBean(AdvlockLockProvider.class).serverId().getAsLong());
            while (!Files.readString(LOG).contains("ERROR io.advlock.spring.shedlock.AdvlockLockProvider - advlock: "
                    + "lost the ShedLock lock(s) 'spring_test_loss_logged'")) {
                Thread.sleep(50);
            }
            jobs.finish().countDown();
            assertInstanceOf(LockLostException.class, assertThrows(ExecutionException.class, job::get).getCause());
        }
    }

    @Test
    void anUnreachableDatabaseFailsTheLockAndTheJobDoesNotRun() {
        // Port 1: nothing listens, the connection is refused. ShedLock's JDBC providers throw here too.
        try (AdvlockLockProvider provider = new AdvlockLockProvider("postgresql://postgres@127.0.0.1:1/postgres")) {
            AtomicBoolean ran = new AtomicBoolean();
            LockConfiguration configuration = new LockConfiguration(ClockProvider.now(), "spring_test_unreachable",
                    Duration.ofMinutes(10), Duration.ZERO);
            assertThrows(ConnectException.class,
                    () -> new DefaultLockingTaskExecutor(provider).executeWithLock((Runnable) () -> ran.set(true), configuration));
            assertFalse(ran.get(), "ran without the lock");
        }
    }

    @Test
    void extendKeepsTheLockAndTheUnlockStillReleasesIt() {
        try (AnnotationConfigApplicationContext node = ShedLockNode.start()) {
            node.getBean(ShedLockJobs.class).extendHalfWay();  // LockExtender would throw if extend failed
            assertEquals(1, node.getBean(ShedLockJobs.class).runs());
            assertTrue(KeyFree.isFree(Key.fromName("spring_test_extend")), "the extended lock outlived its job");
        }
    }

    @Test
    void checkHeldOutsideAJobIsMisuse() {
        assertThrows(MisuseException.class, AdvlockLockProvider::checkHeld);
    }

    /** A job call with its checked exception wrapped, for a CompletableFuture. */
    private static void call(Job job) {
        try {
            job.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Job {
        void run() throws Exception;
    }
}
