package io.advlock;

import java.time.Duration;

/** Options of {@link LockSession#open(String, SessionOptions)}; a small builder, all optional. */
public final class SessionOptions {
    String applicationName = "";
    boolean allowStandby;
    boolean allowPooler;
    Duration heartbeatInterval = Duration.ZERO;
    Duration heartbeatDeadline = Duration.ZERO;
    Duration stopGrace = Duration.ZERO;
    Registry registry;
    String user;      // null: the URL's, else libpq's / the driver's default
    String password;  // null: the URL's, else PGPASSWORD, ~/.pgpass, ~/.my.cnf...

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

    /**
     * How long after a loss is reported (a {@link LockLostListener}, {@link LockSession#check()}) the
     * job may still be working under the lock: the time it takes to stop, such as an executor's
     * shutdown grace period. The server frees a silent client's locks only after heartbeat interval +
     * deadline + stop grace + 3 s, so the job has stopped before anyone else can take them (default
     * 10 s, at most 1 hour; zero: the default). A job that stops at once loses nothing by leaving it.
     */
    public SessionOptions stopGrace(Duration grace) {
        this.stopGrace = grace;
        return this;
    }

    /**
     * The database user, overriding the URL's (as a later keyword does in libpq): for a JDBC URL
     * and a user kept apart from it, as Java batches configure them.
     */
    public SessionOptions user(String user) {
        this.user = requireNoNul(Key.requireText(user, "user"), "the user");
        return this;
    }

    /**
     * The password, overriding the URL's. It reaches the server and nothing else: no exception
     * message and no {@link #toString()} contains it.
     */
    public SessionOptions password(String password) {
        this.password = requireNoNul(Key.requireText(password, "password"), "the password");
        return this;
    }

    /** Every option but the password, which shows as "********" when set. */
    @Override
    public String toString() {
        return "SessionOptions(applicationName=" + applicationName + ", user=" + user
                + ", password=" + (password == null ? "null" : "********") + ", allowStandby=" + allowStandby
                + ", allowPooler=" + allowPooler + ", heartbeatInterval=" + heartbeatInterval
                + ", heartbeatDeadline=" + heartbeatDeadline + ", stopGrace=" + stopGrace
                + ", registry=" + (registry != null) + ")";
    }

    private static String requireNoNul(String text, String what) {
        // libpq and Connector/C read C strings: what follows a NUL would be silently dropped.
        if (text.indexOf('\0') >= 0) throw new InvalidArgumentException("advlock: " + what + " contains a NUL character", "");
        return text;
    }

    /** Names given to tryLock/lock are looked up in this registry. */
    public SessionOptions registry(Registry registry) {
        this.registry = registry;
        return this;
    }
}
