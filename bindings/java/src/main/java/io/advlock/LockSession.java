package io.advlock;

import io.advlock.internal.HolderVector;
import io.advlock.internal.KeyVector;
import io.advlock.internal.NativeCancelToken;
import io.advlock.internal.NativeHolderList;
import io.advlock.internal.NativeKey;
import io.advlock.internal.NativeLock;
import io.advlock.internal.NativeLockSet;
import io.advlock.internal.NativeSession;
import io.advlock.internal.NativeSessionOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

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
 * <p>Sets of locks, all or nothing: a job that needs "daily_sales" and "inventory" at once takes
 * both or neither with {@link #tryLockAll(List)} or {@link #lockAll(List, Duration)}, which give a
 * {@link LockSet}. A try keeps the locks only if every one was free; a wait waits until all are
 * free at once. Every set is taken in one order, by key, whatever order the list has, so jobs
 * waiting for overlapping sets never deadlock each other (a job that also takes single locks while
 * it holds a set keeps to that order itself). On PostgreSQL a try, a granted wait and the release
 * cost one round trip each, however many keys. The owner rule, the options, interrupts and
 * {@link #cancel()} are those of single locks.
 *
 * <p>Thread safety: any thread may use a session; calls to the server are
 * serialised on its one connection (a wait on the server holds the connection,
 * a wait for another Lock of this session does not). {@link #cancel()} ends
 * every thread's wait; {@code Thread.interrupt()} ends the interrupted thread's
 * {@link #lock} wait only, with a {@link CanceledException} (see
 * {@link #lock(Key, Duration, LockOptions)}), so {@code ExecutorService.shutdownNow()}
 * ends tasks blocked in lock() or lockAll(). {@link #close()} may come from any thread and
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
            o.setStop_grace_ms(milliseconds(options.stopGrace, "stop grace"));
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

    /**
     * Take every lock of the set without waiting, or none: empty when any of them is held by
     * another owner (another session, or another Lock or LockSet of this one), and then none of the
     * free ones is kept. Exclusive and not reentrant.
     */
    public Optional<LockSet> tryLockAll(List<Key> keys) {
        return tryLockAll(keys, LockOptions.defaults());
    }

    /**
     * As {@link #tryLockAll(List)}, with the options' mode and reentrancy; a set has no slots and no
     * fencing token ({@link InvalidArgumentException}). The keys must be distinct locks, at least
     * one ({@link InvalidArgumentException} otherwise). Never interrupted, as {@link #tryLock}.
     */
    public Optional<LockSet> tryLockAll(List<Key> keys, LockOptions options) {
        return Optional.ofNullable(takeAll(keys, options, 0, false));
    }

    /** {@link #lockAll(List, Duration, LockOptions)}, exclusive and not reentrant. */
    public LockSet lockAll(List<Key> keys, Duration timeout) {
        return lockAll(keys, timeout, LockOptions.defaults());
    }

    /**
     * Take every lock of the set, waiting up to timeout (null: as long as it takes) until all are
     * free at once. Throws {@link NotAcquiredException} when the time runs out, with none of them
     * held, and otherwise fails as {@link #lock(Key, Duration, LockOptions)} does, interrupts
     * included: {@code Thread.interrupt()} ends the wait with a {@link CanceledException} caused by
     * an {@link InterruptedException}, the flag left set, and a set granted in the race is released.
     * A failed wait never leaves a lock behind. Options and keys as {@link #tryLockAll(List, LockOptions)}.
     */
    public LockSet lockAll(List<Key> keys, Duration timeout, LockOptions options) {
        long ms = timeout == null ? WAIT_FOREVER : milliseconds(timeout, "timeout");
        LockSet set = takeAll(keys, options, ms, true);
        if (set == null) {  // keys passed takeAll's checks
            throw new NotAcquiredException("lock " + setName(keys) + ": not all of them were free at once (none "
                    + "is held now)" + (ms == 0 ? " (no wait)" : "; gave up after " + timeout), "");
        }
        return set;
    }

    /**
     * The keys these names lock on this session, as {@link #tryLock(String)} finds them (the
     * session's registry when it has one, else {@link Key#fromName}), for a set of named locks:
     * {@code session.tryLockAll(session.keysNamed("daily_sales", "inventory"))}.
     */
    public List<Key> keysNamed(String... names) {
        if (names == null) throw new InvalidArgumentException("names is null", "");
        List<Key> keys = new ArrayList<>(names.length);
        for (String name : names) keys.add(keyOf(name));
        return Collections.unmodifiableList(keys);
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
        // Read once: the builder may change after, the Lock says what it was taken with.
        Mode mode = options.mode;
        boolean reentrant = options.reentrant;
        int slots = options.slots;
        boolean fenced = options.fenced;
        NativeKey k = key.toNative();
        NativeLock lock = acquire("lock " + key, interruptible, NativeLock::release, (token, owner) ->
                session.acquireAs(k, mode == Mode.SHARED, timeoutMs, reentrant, token, owner, slots, fenced));
        return lock == null ? null : new Lock(this, lock, key, mode, reentrant);
    }

    private LockSet takeAll(List<Key> keys, LockOptions options, long timeoutMs, boolean interruptible) {
        List<Key> asked = keyList(keys);
        if (options == null) throw new InvalidArgumentException("options is null", "");
        Mode mode = options.mode;
        boolean reentrant = options.reentrant;
        // Passed on for the core to refuse: a set has neither, and says so in every binding alike.
        int slots = options.slots;
        boolean fenced = options.fenced;
        KeyVector natives = new KeyVector();
        try {
            for (Key key : asked) natives.add(key.toNative());  // copies
            NativeLockSet set = acquire("lock " + setName(asked), interruptible, NativeLockSet::release,
                    (token, owner) -> session.acquireAll(natives, mode == Mode.SHARED, timeoutMs, reentrant, token,
                            owner, slots, fenced));
            return set == null ? null : new LockSet(this, set, asked, mode, reentrant);
        } finally {
            natives.delete();  // the locks keep copies of their keys
        }
    }

    /** One native acquire: the wait's cancel token (null for a try) and the owner's id in, null when not acquired. */
    @FunctionalInterface
    private interface NativeAcquire<T> {
        T run(NativeCancelToken cancel, long owner);
    }

    /**
     * The one path of every acquire, a lock's or a set's: the calling thread is the owner, and an
     * interruptible wait ends at Thread.interrupt() (InterruptibleWait), a grant won in the race given
     * to undo.
     */
    private static <T> T acquire(String what, boolean interruptible, Consumer<T> undo, NativeAcquire<T> call) {
        // The Java thread, not the OS thread, is the owner: a virtual thread
        // moves between carriers and shares them (thread ids start at 1).
        @SuppressWarnings("deprecation") long owner = Thread.currentThread().getId();
        return interruptible ? InterruptibleWait.run(what, token -> call.run(token, owner), undo) : call.run(null, owner);
    }

    /** An unmodifiable copy, in the caller's order; a null entry is named by its index. */
    private static List<Key> keyList(List<Key> keys) {
        if (keys == null) throw new InvalidArgumentException("keys is null", "");
        List<Key> copy = new ArrayList<>(keys.size());
        for (Key key : keys) {
            if (key == null) throw new InvalidArgumentException("keys[" + copy.size() + "] is null", "");
            copy.add(key);
        }
        return Collections.unmodifiableList(copy);
    }

    /** "set of K1, K2", as messages name a set. */
    private static String setName(List<Key> keys) {
        return "set of " + LockSet.join(keys);
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
