package io.advlock;

import io.advlock.internal.HolderVector;
import io.advlock.internal.NativeHolderList;
import io.advlock.internal.NativeKey;
import io.advlock.internal.NativeLock;
import io.advlock.internal.NativeSession;
import io.advlock.internal.NativeSessionOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One dedicated database connection that holds locks: never from a pool,
 * never shared with the job's own queries. Closing it releases every lock it
 * holds, on the server, at once.
 *
 * <pre>{@code
 * try (LockSession session = LockSession.open(url)) {
 *     Optional<Lock> lock = session.tryLock(Key.fromName("daily_sales"));
 *     if (lock.isEmpty()) System.exit(3);          // already running: skip
 *     try (Lock held = lock.get()) { runBatch(held::ensureHeld); }
 * }
 * }</pre>
 *
 * <p>One lock, one owner. Every {@link Lock} is its own owner, as every session
 * is on the server: two Locks never both hold a key exclusively, nor one
 * exclusively and one shared, even on one session, so threads sharing a
 * LockSession (a thread pool) exclude each other as separate sessions would.
 * Where another Lock of this session holds the key, {@link #tryLock} is empty
 * and {@link #lock} waits in the process (same timeout, cancel and interrupt
 * as a wait on the server); a thread that would wait for a Lock it holds
 * itself gets a {@link DeadlockException} at once. Re-entry is never an
 * accident: ask for it with {@link LockOptions#reentrant(boolean)}, and the
 * calling thread's reentrant Locks on the key are one owner. Shared Locks
 * never conflict with each other. Threads are told apart by their Java thread
 * id, so virtual threads (Java 21) are owners of their own even when they share
 * a carrier thread or move between carriers.
 *
 * <p>Thread safety: any thread may use a session; calls to the server are
 * serialised on its one connection (a wait on the server holds the connection,
 * a wait for another Lock of this session does not). {@link #cancel()} ends
 * every thread's wait; {@code Thread.interrupt()} ends the interrupted thread's
 * {@link #lock} wait only, with a {@link CanceledException} (see
 * {@link #lock(Key, Duration, LockOptions)}), so {@code ExecutorService.shutdownNow()}
 * ends tasks blocked in lock(). {@link #close()} may come from any thread and
 * ends the waits in progress (with a {@link MisuseException}: the session is closed). After
 * close every call throws {@link MisuseException} but {@link #cancel()} (nothing to end) and
 * {@link #serverId()} (still known): the C ABI answers, Java keeps no state of its own.
 *
 * <p>The native session is freed when the LockSession and its Locks are unreachable (SWIG's
 * finalization of its native proxy, which every native call passes along, so the garbage collector
 * can never free it while a call is inside it). A session never closed is closed then, its locks
 * released; a session with a lost listener stays reachable from the listener's thread until closed.
 */
public final class LockSession implements AutoCloseable {
    private static final long WAIT_FOREVER = -1;

    // Never deleted by this class: a close() on one thread must not free what a wait on
    // another is inside of. Its finalization frees it, once nothing can call it.
    private final NativeSession session;
    private final Registry registry;
    private final List<LockLostListener> listeners = new CopyOnWriteArrayList<>();
    private Thread lostWatcher;

    private LockSession(NativeSession session, Registry registry) {
        this.session = session;
        this.registry = registry;
    }

    /**
     * Open a session from a postgresql:// URL or conninfo ("" uses the PG* variables); "local" for host locks;
     * mysql://user:password@host/db (or mariadb://) for GET_LOCK locks, which lock names as they are.
     *
     * <p>The JDBC URL a batch already has works too: {@code jdbc:postgresql://HOST[:PORT][,HOST2...]/DB?user=U&password=P}
     * (port 5432 when left out, as pgjdbc; pgjdbc's ApplicationName, ssl, sslmode, sslcert, sslkey, sslrootcert,
     * sslpassword, options, connectTimeout, gssEncMode and targetServerType are applied, its statement settings
     * such as prepareThreshold ignored, any other parameter refused), and {@code jdbc:mysql://HOST[:PORT]/DB?...}
     * or {@code jdbc:mariadb://...} open a MySQL session (user, password, connectTimeout). A URL without a host,
     * a driver advlock does not lock on, or a parameter it cannot apply is an {@link InvalidArgumentException}
     * naming the problem, never quoting the URL.
     */
    public static LockSession open(String url) {
        return open(url, SessionOptions.defaults());
    }

    /**
     * Throws {@link ConnectException}, {@link UnsafeTargetException} (standby, read-only, pooler, cluster)
     * unless allowed, {@link InvalidArgumentException}. {@link SessionOptions#user} and
     * {@link SessionOptions#password} override the URL's.
     */
    public static LockSession open(String url, SessionOptions options) {
        Key.requireText(url, "url");
        if (options == null) throw new InvalidArgumentException("advlock: options is null", "");
        String target = DatabaseUrl.resolve(url, options.user, options.password);
        NativeSessionOptions o = new NativeSessionOptions();
        try {
            o.setApplication_name(options.applicationName);
            o.setAllow_standby(options.allowStandby);
            o.setAllow_pooler(options.allowPooler);
            o.setHeartbeat_interval_ms(milliseconds(options.heartbeatInterval, "heartbeat interval"));
            o.setHeartbeat_deadline_ms(milliseconds(options.heartbeatDeadline, "heartbeat deadline"));
            return new LockSession(NativeSession.open(target, o), options.registry);
        } finally {
            o.delete();
        }
    }

    /** Take the lock without waiting; empty when another session holds it. */
    public Optional<Lock> tryLock(Key key) {
        return tryLock(key, Mode.EXCLUSIVE);
    }

    public Optional<Lock> tryLock(Key key, Mode mode) {
        return tryLock(key, LockOptions.defaults().mode(mode));
    }

    /**
     * Take the lock without waiting, as options say (mode, reentrant); empty when another owner
     * holds it: another session, or another Lock of this one (see the owner rule above). Never
     * interrupted: a tryLock does not wait for other owners.
     */
    public Optional<Lock> tryLock(Key key, LockOptions options) {
        return Optional.ofNullable(take(key, options, 0, false));
    }

    /** A name: looked up in the session's registry when it has one, else {@link Key#fromName}. */
    public Optional<Lock> tryLock(String name) {
        return tryLock(keyOf(name), Mode.EXCLUSIVE);
    }

    public Optional<Lock> tryLock(String name, LockOptions options) {
        return tryLock(keyOf(name), options);
    }

    /** {@link #lock(Key, Duration, LockOptions)}, exclusive and not reentrant. */
    public Lock lock(Key key, Duration timeout) {
        return lock(key, timeout, LockOptions.defaults());
    }

    public Lock lock(Key key, Duration timeout, Mode mode) {
        return lock(key, timeout, LockOptions.defaults().mode(mode));
    }

    /**
     * Take the lock, waiting up to timeout (null: as long as it takes) for the other owners to let
     * go: other Locks of this session in the process, other sessions on the server. Throws
     * {@link NotAcquiredException} when the time runs out, {@link CanceledException} when
     * {@link #cancel()} ends it, {@link DeadlockException} when the server finds a deadlock, this
     * thread holds the conflicting Lock itself, or threads of this session would wait for each
     * other in a cycle. A failed wait never leaves a lock behind.
     *
     * <p>Interruptible: {@code Thread.interrupt()} ends the wait at once (also when the thread was
     * interrupted before the call) with a {@link CanceledException} whose cause is an
     * {@link InterruptedException}, and the thread's interrupt flag stays set, as
     * {@code ClosedByInterruptException} leaves it: the exception is unchecked like every advlock
     * exception, so lock() stays usable in lambdas, and the flag tells the pool's code what
     * happened. A lock granted in the race with the interrupt is released: an interrupted wait
     * never returns a Lock. One limit: while another thread of this session waits on the server,
     * a thread that needs the connection for its own server wait queues for it, and its interrupt
     * lands once the connection is free.
     */
    public Lock lock(Key key, Duration timeout, LockOptions options) {
        long ms = timeout == null ? WAIT_FOREVER : milliseconds(timeout, "timeout");
        Lock lock = take(key, options, ms, true);
        if (lock == null) {
            throw new NotAcquiredException("lock " + key + " is held by another owner"
                    + (ms == 0 ? " (no wait)" : "; gave up after " + timeout), "");
        }
        return lock;
    }

    public Lock lock(String name, Duration timeout) {
        return lock(keyOf(name), timeout, LockOptions.defaults());
    }

    public Lock lock(String name, Duration timeout, LockOptions options) {
        return lock(keyOf(name), timeout, options);
    }

    /** End every {@link #lock} wait in progress on this session, on every thread ({@link CanceledException}). */
    public void cancel() {
        session.cancel();
    }

    /** No round trip: throws {@link LockLostException} once the locks are known lost. */
    public void check() {
        session.check();
    }

    /** True once the session's locks are known lost (no round trip). */
    public boolean isLost() {
        try {
            session.check();
            return false;
        } catch (LockLostException e) {
            return true;
        }
    }

    /** One round trip proving this is still the session that took its locks. */
    public void verify() {
        session.verify();
    }

    /**
     * The server's id for this session's connection: the PostgreSQL backend pid
     * (pg_locks.pid), the MySQL/MariaDB connection id (CONNECTION_ID(), 64 bits),
     * the process id for local locks.
     */
    public long serverId() {
        return session.serverId();
    }

    /**
     * Who holds or waits for advisory locks (pg_locks on PostgreSQL; on MySQL and
     * MariaDB what the server can show, said by {@link Holders#note}), never by taking a lock.
     */
    public Holders holders() {
        return holders(null);
    }

    /** Only the holders of and waiters for key (null: all). */
    public Holders holders(Key key) {
        NativeKey only = key == null ? null : key.toNative();
        NativeHolderList list = session.holders(registry == null ? null : registry.handle(), only);
        try {
            HolderVector rows = list.getRows();
            List<Holder> result = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) result.add(Holder.of(rows.get(i)));
            return new Holders(result, list.getNote());
        } finally {
            list.delete();  // this thread's own copy
        }
    }

    /**
     * Call listener once when the locks are lost (right away if they already
     * are). Listeners run on a thread of this session's, named
     * "advlock-lost-watch", which waits in the C ABI (advlock_session_wait_lost)
     * until the loss or the close.
     */
    public synchronized void addLostListener(LockLostListener listener) {
        if (listener == null) throw new InvalidArgumentException("listener is null", "");
        isLost();  // MisuseException once closed: that session's listener would never be told
        listeners.add(listener);
        if (lostWatcher == null) {
            lostWatcher = new Thread(this::watchForLoss, "advlock-lost-watch");
            lostWatcher.setDaemon(true);
            lostWatcher.start();
        }
    }

    /** True once {@link #close()} ran (the C ABI's answer: calls are misuse now). */
    public boolean isClosed() {
        try {
            session.check();
            return false;
        } catch (LockLostException e) {
            return false;
        } catch (MisuseException e) {
            return true;
        }
    }

    /**
     * Close the connection, releasing every lock. Any thread, any time, twice: waits in
     * progress on other threads end with a {@link MisuseException}, the lost listener's thread
     * ends, and later calls throw {@link MisuseException}.
     */
    @Override
    public void close() {
        session.close();
    }

    // ---- private ---------------------------------------------------------------------

    private Lock take(Key key, LockOptions options, long timeoutMs, boolean interruptible) {
        if (key == null) throw new InvalidArgumentException("key is null", "");
        if (options == null) throw new InvalidArgumentException("options is null", "");
        Mode mode = options.mode;
        boolean reentrant = options.reentrant;
        // The Java thread, not the OS thread, is the owner: a virtual thread
        // moves between carriers and shares them (thread ids start at 1).
        @SuppressWarnings("deprecation") long owner = Thread.currentThread().getId();
        NativeKey k = key.toNative();
        int slots = options.slots;
        boolean fenced = options.fenced;
        NativeLock lock = !interruptible
                ? session.acquireAs(k, mode == Mode.SHARED, 0, reentrant, null, owner, slots, fenced)
                : InterruptibleWait.run("lock " + key,
                        token -> session.acquireAs(k, mode == Mode.SHARED, timeoutMs, reentrant, token, owner, slots,
                                fenced),
                        NativeLock::release);
        return lock == null ? null : new Lock(this, lock, key, mode, reentrant);
    }

    private Key keyOf(String name) {
        Key.requireText(name, "lock name");
        return registry != null ? registry.key(name) : Key.fromName(name);
    }

    private void watchForLoss() {
        String why = session.waitUntilLost();  // returns "" when the session closes
        if (why.isEmpty()) return;
        for (LockLostListener listener : listeners) {
            try {
                listener.lockLost(this, why);
            } catch (RuntimeException e) {  // one broken listener must not silence the others
                Thread self = Thread.currentThread();
                self.getUncaughtExceptionHandler().uncaughtException(self, e);
            }
        }
    }

    static int milliseconds(Duration duration, String what) {
        if (duration == null) throw new InvalidArgumentException(what + " is null", "");
        if (duration.isNegative() || duration.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
            throw new InvalidArgumentException(what + " must be 0 to 2147483647 ms, got " + duration, "");
        }
        long ms = duration.toMillis();
        return (int) (duration.isZero() || ms > 0 ? ms : 1);  // a positive fraction of a ms still waits
    }
}
