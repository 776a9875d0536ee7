package io.advlock.spring.support;

import io.advlock.LockLostListener;
import io.advlock.LockSession;
import io.advlock.MisuseException;
import io.advlock.SessionOptions;
import java.util.OptionalLong;

/**
 * The one {@link LockSession} a Spring-side lock source (the ShedLock provider, the lock registry)
 * takes its locks on: opened on first use, and replaced by a new one once it is known lost, so no
 * lock is ever handed out from a dead session. Its own connection, never a pooled DataSource's: a
 * session lock lives as long as its connection, so on a pooled connection it would linger after the
 * job (the pool keeps the connection open) or vanish under it (the pool closes or resets it), and
 * the pool knows nothing of the heartbeat that tells advlock the lock is lost.
 *
 * <p>Opening lazily keeps an application starting while the database is down: the first lock
 * fails instead (with the advlock exception naming why), as a ShedLock JDBC provider's does.
 * Thread safe.
 */
public final class LockSessionSource implements AutoCloseable {
    private final String url;
    private final SessionOptions options;
    private final LockLostListener listener;
    private LockSession session;
    private boolean closed;

    /** url as {@link LockSession#open(String, SessionOptions)} takes it; listener is told of each session's loss. */
    public LockSessionSource(String url, SessionOptions options, LockLostListener listener) {
        if (url == null) throw new IllegalArgumentException("advlock: url is null");
        if (options == null) throw new IllegalArgumentException("advlock: session options are null");
        if (listener == null) throw new IllegalArgumentException("advlock: listener is null");
        this.url = url;
        this.options = options;
        this.listener = listener;
    }

    /**
     * The live session: the current one unless it is lost (then closed, which frees it at once, and
     * replaced) or none is open yet. Throws what {@link LockSession#open} throws, and
     * {@link MisuseException} once this source is closed.
     */
    public synchronized LockSession current() {
        if (closed) throw new MisuseException("advlock: the lock source is closed (its application context is shutting down)", "");
        if (session != null && session.isLost()) {
            session.close();
            session = null;
        }
        if (session == null) {
            LockSession opened = LockSession.open(url, options);
            opened.addLostListener(listener);
            session = opened;
        }
        return session;
    }

    /** The server's id of the session open now (PostgreSQL backend pid); empty before the first lock. */
    public synchronized OptionalLong serverId() {
        return session == null ? OptionalLong.empty() : OptionalLong.of(session.serverId());
    }

    /** Close the session, releasing every lock it holds on the server at once; later calls are misuse. */
    @Override
    public synchronized void close() {
        closed = true;
        if (session != null) session.close();
        session = null;
    }
}
