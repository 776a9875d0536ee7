package io.advlock;

import java.time.Duration;

/** Options of {@link LockSession#open(String, SessionOptions)}; a small builder, all optional. */
public final class SessionOptions {
    String applicationName = "";
    boolean allowStandby;
    boolean allowPooler;
    Duration heartbeatInterval = Duration.ZERO;
    Duration heartbeatDeadline = Duration.ZERO;
    Registry registry;

    public static SessionOptions defaults() {
        return new SessionOptions();
    }

    /** Shown in pg_stat_activity (default: the URL's, PGAPPNAME, else "advlock"). */
    public SessionOptions applicationName(String name) {
        this.applicationName = Key.requireText(name, "application name");
        return this;
    }

    /** Accept a hot standby or read-only server: locks there exclude only sessions on that server. */
    public SessionOptions allowStandby(boolean allow) {
        this.allowStandby = allow;
        return this;
    }

    /** Accept a connection pooler in between (safe only with PgBouncer in session mode). */
    public SessionOptions allowPooler(boolean allow) {
        this.allowPooler = allow;
        return this;
    }

    /** Heartbeat after this long without a round trip (default 2 s). */
    public SessionOptions heartbeatInterval(Duration interval) {
        this.heartbeatInterval = interval;
        return this;
    }

    /** Declare the session lost when a heartbeat is not answered within this (default 3 s). */
    public SessionOptions heartbeatDeadline(Duration deadline) {
        this.heartbeatDeadline = deadline;
        return this;
    }

    /** Names given to tryLock/lock are looked up in this registry. */
    public SessionOptions registry(Registry registry) {
        this.registry = registry;
        return this;
    }
}
