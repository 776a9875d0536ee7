package example.spring;

import io.advlock.spring.shedlock.AdvlockLockProvider;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * An existing @SchedulerLock job, unchanged but for the checkHeld() calls: on one node at a time;
 * the others skip it (ShedLock logs "Not executing 'daily_sales'. It's locked."). The lock is
 * advlock's name key, so `advlock run --name daily_sales -- ...` from cron excludes it too.
 */
@Component
public class DailySalesJob {
    private final Settings settings;

    public DailySalesJob(Settings settings) {
        this.settings = settings;
    }

    @Scheduled(initialDelay = 0, fixedDelay = 60_000)
    @SchedulerLock(name = "daily_sales", lockAtMostFor = "PT30M", lockAtLeastFor = "PT0S")
    public void run() throws InterruptedException {
        System.out.println("daily_sales: holding the lock, working");
        long end = System.nanoTime() + settings.secondsOfWork() * 1_000_000_000L;
        while (System.nanoTime() < end) {
            Thread.sleep(100);
            AdvlockLockProvider.checkHeld();  // throws LockLostException once the lock is lost: stop working
        }
        System.out.println("daily_sales: done");
    }
}
