package io.advlock.spring.shedlock;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

import io.advlock.Key;
import io.advlock.Lock;
import io.advlock.LockLostException;
import io.advlock.LockLostListener;
import io.advlock.LockSession;
import io.advlock.MisuseException;
import io.advlock.SessionOptions;
import io.advlock.spring.support.LockSessionSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ShedLock {@code LockProvider} on advlock session locks: an existing {@code @SchedulerLock} job
 * switches with this one bean, and gains loss detection. The lock of {@code @SchedulerLock(name = "X")}
 * is {@link Key#fromName(String) Key.fromName("X")}, the key {@code advlock run --name X} takes, so a
 * cron job and a Spring job of the same name exclude each other.
 *
 * <pre>{@code
 * @Bean
 * AdvlockLockProvider lockProvider() {            // closed with the context: its locks go at once
 *     return new AdvlockLockProvider("jdbc:postgresql://db1/sales", SessionOptions.defaults().user("batch"));
 * }
 * }</pre>
 *
 * <p>Its locks are held by one advlock {@link LockSession}, a connection of its own, never one of the
 * application's pooled DataSource: a session lock lives as long as its connection, so on a pooled
 * connection it would outlive the job (the pool keeps the connection) or die under it (the pool
 * resets or closes it), and advlock's heartbeat, which finds a lost lock, runs on its own session.
 * The session is opened by the first {@link #lock}.
 *
 * <p>How ShedLock's times map onto a lock the server holds for as long as the session lives:
 * <ul>
 * <li>{@code lockAtMostFor}: a running job's lock is never released. ShedLock needs the limit to
 *     free the lock of a node that died; here the server frees it when the dead node's session
 *     ends. A job still running at lockAtMostFor gets one WARN naming its lock, nothing more.
 * <li>{@code lockAtLeastFor}: honoured. A job returning earlier keeps its lock until lockAtLeastFor
 *     has passed since the lock was taken, then a daemon timer releases it. {@link #close()}
 *     releases every lock at once, pending ones too.
 * <li>{@code extend} (ShedLock's {@code LockExtender}): the lock stays held, as it always does;
 *     the new lockAtLeastFor counts from the extension. Empty once the lock is lost.
 * </ul>
 *
 * <p>A lost lock (the server ended the session, the network failed: advlock's heartbeat finds it)
 * reaches the job: {@link #checkHeld()}, called in the job, throws {@link LockLostException}, the
 * unlock ShedLock does when the job returns throws it too, and the listener is told at once
 * ({@link #setLockLostListener}; by default it logs an ERROR naming the locks). The next lock is
 * taken on a new session: none is handed out from a dead one.
 *
 * <p>When the database cannot be reached, {@link #lock} throws the advlock exception that says why
 * ({@link io.advlock.ConnectException}...), as ShedLock's JDBC providers let Spring's
 * DataAccessException through: the job does not run, and the scheduler logs the failure.
 * Never "run anyway".
 */
public final class AdvlockLockProvider implements ExtensibleLockProvider, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(AdvlockLockProvider.class);

    /** The locks this thread's running jobs hold, innermost last: what {@link #checkHeld()} checks. */
    private static final ThreadLocal<Deque<Lock>> RUNNING = ThreadLocal.withInitial(ArrayDeque::new);

    private final LockSessionSource sessions;
    private final ScheduledThreadPoolExecutor timer;
    private final Map<Lock, String> held = new ConcurrentHashMap<>();  // lock → its ShedLock name
    private volatile LockLostListener lostListener = this::logLoss;

    /** A provider on url (PostgreSQL or JDBC URL, as {@link LockSession#open(String)} takes it). */
    public AdvlockLockProvider(String url) {
        this(url, SessionOptions.defaults().applicationName("advlock-shedlock"));
    }

    public AdvlockLockProvider(String url, SessionOptions options) {
        sessions = new LockSessionSource(url, options, (session, why) -> lostListener.lockLost(session, why));
        timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "advlock-shedlock-timer");
            thread.setDaemon(true);  // never keeps a JVM alive: close() or the exit ends its locks
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Told once per lost session, on advlock's watcher thread; replaces the default, which logs an
     * ERROR naming the locks. Keep it short (set a flag, interrupt the job).
     */
    public void setLockLostListener(LockLostListener listener) {
        if (listener == null) throw new IllegalArgumentException("advlock: listener is null");
        lostListener = listener;
    }

    /** Try-lock of Key.fromName(name); empty while another node (or job of this one) holds it. */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        Key key = Key.fromName(configuration.getName());
        return sessions.current().tryLock(key).map(lock -> {
            held.put(lock, configuration.getName());
            RUNNING.get().addLast(lock);
            return new AdvlockSimpleLock(this, configuration, lock);
        });
    }

    /**
     * In a {@code @SchedulerLock} job: throws {@link LockLostException} when a lock the job holds
     * from an AdvlockLockProvider is lost (no round trip: call it in the job's loops, before each
     * commit), and {@link MisuseException} when this thread holds none (not inside such a job).
     */
    public static void checkHeld() {
        Deque<Lock> running = RUNNING.get();
        if (running.isEmpty()) {
            RUNNING.remove();
            throw new MisuseException("advlock: this thread holds no lock of an AdvlockLockProvider; call "
                    + "checkHeld() inside the @SchedulerLock job, on its own thread", "");
        }
        for (Lock lock : running) lock.ensureHeld();
    }

    /** The server's id for the session open now (the PostgreSQL backend pid); empty before the first lock. */
    public OptionalLong serverId() {
        return sessions.serverId();
    }

    /** Releases every lock at once (those kept for lockAtLeastFor too) by closing the session. */
    @Override
    public void close() {
        timer.shutdownNow();
        sessions.close();
        held.clear();
    }

    // ---- for AdvlockSimpleLock ---------------------------------------------------------

    /** The job ended on this thread: it no longer holds lock for {@link #checkHeld()}. */
    void jobEnded(Lock lock) {
        Deque<Lock> running = RUNNING.get();
        running.removeLastOccurrence(lock);
        if (running.isEmpty()) RUNNING.remove();
    }

    /** Release lock at once, or when lockAtLeastFor has passed; a loss is thrown. */
    void release(Lock lock, Duration keepFor) {
        if (keepFor.isNegative() || keepFor.isZero() || !lock.isHeld()) {
            releaseNow(lock);
            return;
        }
        try {
            timer.schedule(() -> releaseLater(lock), keepFor.toNanos(), NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            releaseNow(lock);  // the provider is closed: its session released the lock already
        }
    }

    /** One WARN when a job runs past its lockAtMostFor; cancelled when it ends. */
    Future<?> warnAfter(Duration after, String name, Duration lockAtMostFor, Lock lock) {
        try {
            return timer.schedule(() -> {
                if (lock.isHeld()) {
                    log.warn("advlock: ShedLock job '{}' has run past its lockAtMostFor ({}); its lock stays held "
                            + "until the job returns (a dead node's lock ends with its session)", name, lockAtMostFor);
                }
            }, Math.max(0, after.toNanos()), NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            return CompletableFuture.completedFuture(null);
        }
    }

    private void releaseNow(Lock lock) {
        try {
            lock.close();  // throws LockLostException when the lock had been lost
        } finally {
            held.remove(lock);
        }
    }

    private void releaseLater(Lock lock) {
        String name = held.get(lock);
        try {
            releaseNow(lock);
        } catch (LockLostException e) {
            log.error("advlock: ShedLock lock '{}' was lost while kept for its lockAtLeastFor: {}", name, e.getMessage());
        }
    }

    private void logLoss(LockSession session, String why) {
        String names = held.entrySet().stream().filter(e -> e.getKey().session() == session)
                .map(e -> "'" + e.getValue() + "'").sorted().collect(Collectors.joining(", "));
        log.error("advlock: lost the ShedLock lock(s) {} ({}): a job running under them may overlap another "
                + "node's run; the next lock opens a new session", names.isEmpty() ? "(none held)" : names, why);
    }
}
