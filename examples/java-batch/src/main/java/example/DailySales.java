package example;

import io.advlock.AdvlockException;
import io.advlock.Lock;
import io.advlock.LockLostException;
import io.advlock.LockSession;
import io.advlock.SessionOptions;
import java.util.Optional;

/**
 * The daily_sales batch: runs on one host at a time, exits 3 while another run
 * holds its lock. The same example as examples/c, examples/cpp and
 * examples/python.
 *
 *   java -jar daily-sales.jar postgresql://batch@db/sales [SECONDS]
 */
public final class DailySales {
    public static void main(String[] args) throws InterruptedException {
        String url = args.length > 0 ? args[0] : "";
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 1;
        int status;
        try (LockSession session = LockSession.open(url, SessionOptions.defaults().applicationName("daily_sales"))) {
            Optional<Lock> lock = session.tryLock(BatchLock.DAILY_SALES.key());
            if (lock.isEmpty()) {
                System.out.println("daily_sales: already running elsewhere, skipping");
                System.exit(3);
            }
            try (Lock held = lock.get()) {
                System.out.println("daily_sales: holding the lock, working");
                runBatch(held, seconds);
            }
            status = 0;
        } catch (LockLostException e) {
            System.err.println("daily_sales: lock lost, stopping: " + e.getMessage());
            status = 75;
        } catch (AdvlockException e) {
            System.err.println("advlock: " + e.getMessage());
            status = 1;
        }
        System.exit(status);
    }

    /** The real work, in steps; each step checks the lock (no round trip). */
    private static void runBatch(Lock lock, long seconds) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            Thread.sleep(Math.min(100, seconds * 1000));
            lock.ensureHeld();  // throws LockLostException
        }
    }
}
