package io.advlock.spring.shedlock;

import io.advlock.LockLostException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;

/** The @SchedulerLock jobs of one test node; ShedLock's own proxy decides whether they run. */
public class ShedLockJobs {
    final AtomicInteger runs = new AtomicInteger();
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch finish = new CountDownLatch(1);
    final CountDownLatch lost = new CountDownLatch(1);
    volatile LockLostException seenInJob;

    // Read through methods: the test holds ShedLock's class proxy, whose own fields are unset.
    public int runs() {
        return runs.get();
    }

    public CountDownLatch started() {
        return started;
    }

    public CountDownLatch finish() {
        return finish;
    }

    public CountDownLatch lost() {
        return lost;
    }

    public LockLostException seenInJob() {
        return seenInJob;
    }

    /** Runs until finish opens: "the first node is running". */
    @SchedulerLock(name = "spring_test_hold", lockAtMostFor = "PT10M")
    public void hold() throws InterruptedException {
        runUntilFinished();
    }

    @SchedulerLock(name = "spring_test_at_least", lockAtMostFor = "PT2H", lockAtLeastFor = "PT1H")
    public void atLeastAnHour() {
        runs.incrementAndGet();
    }

    @SchedulerLock(name = "spring_test_no_minimum", lockAtMostFor = "PT10M", lockAtLeastFor = "PT0S")
    public void noMinimum() {
        runs.incrementAndGet();
    }

    @SchedulerLock(name = "spring_test_short_minimum", lockAtMostFor = "PT10M", lockAtLeastFor = "PT0.2S")
    public void shortMinimum() {
        runs.incrementAndGet();
    }

    /** Runs past its lockAtMostFor until finish opens. */
    @SchedulerLock(name = "spring_test_overrun", lockAtMostFor = "PT0.1S")
    public void overrun() throws InterruptedException {
        runUntilFinished();
    }

    /** Holds its lock until finish opens, for the default lost listener to name. */
    @SchedulerLock(name = "spring_test_loss_logged", lockAtMostFor = "PT10M")
    public void holdUntilLogged() throws InterruptedException {
        runUntilFinished();
    }

    /** Extends its own lock half-way, as ShedLock's LockExtender lets a long job do. */
    @SchedulerLock(name = "spring_test_extend", lockAtMostFor = "PT10M")
    public void extendHalfWay() {
        LockExtender.extendActiveLock(Duration.ofMinutes(20), Duration.ZERO);
        runs.incrementAndGet();
        AdvlockLockProvider.checkHeld();
    }

    /** Waits for the test to kill its session, then asks whether its lock is still held. */
    @SchedulerLock(name = "spring_test_loss", lockAtMostFor = "PT10M")
    public void untilLost() throws InterruptedException {
        runs.incrementAndGet();
        started.countDown();
        lost.await();
        try {
            AdvlockLockProvider.checkHeld();
        } catch (LockLostException e) {
            seenInJob = e;
        }
    }

    /** A run that lasts until the test opens finish: "the job is running". */
    private void runUntilFinished() throws InterruptedException {
        runs.incrementAndGet();
        started.countDown();
        finish.await();
    }
}
