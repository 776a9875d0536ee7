package io.advlock;

import io.advlock.internal.NativeHolder;
import java.time.Instant;
import java.util.Optional;

/** A session holding or waiting for an advisory lock, from pg_locks and pg_stat_activity. */
public final class Holder {
    private final Key key;
    private final String lockName;
    private final Mode mode;
    private final boolean granted;
    private final boolean self;
    private final boolean detailsHidden;
    private final long serverId;
    private final String user;
    private final String applicationName;
    private final String clientAddress;
    private final Instant backendStart;
    private final Instant waitStart;

    private Holder(NativeHolder h) {
        key = Key.of(h.getKey());
        lockName = h.getLock_name();
        mode = h.getShared() ? Mode.SHARED : Mode.EXCLUSIVE;
        granted = h.getGranted();
        self = h.getIs_self();
        detailsHidden = h.getDetails_hidden();
        serverId = h.getServer_id();
        user = h.getUser();
        applicationName = h.getApplication_name();
        clientAddress = h.getClient_addr();
        backendStart = instant(h.getBackend_start_unix_us());
        waitStart = instant(h.getWait_start_unix_us());
    }

    static Holder of(NativeHolder h) {
        return new Holder(h);
    }

    public Key key() { return key; }
    /** The registry's name for the key. */
    public Optional<String> lockName() { return text(lockName); }
    public Mode mode() { return mode; }
    /** True: holds the lock; false: waits for it. */
    public boolean isGranted() { return granted; }
    /** The session that asked. */
    public boolean isSelf() { return self; }
    /** The server hides user, application and client from this role (grant pg_read_all_stats). */
    public boolean detailsHidden() { return detailsHidden; }
    /**
     * The holder's {@link LockSession#serverId()}: the PostgreSQL backend pid (0 for a prepared
     * transaction), the MySQL/MariaDB connection id.
     */
    public long serverId() { return serverId; }
    public Optional<String> user() { return text(user); }
    public Optional<String> applicationName() { return text(applicationName); }
    public Optional<String> clientAddress() { return text(clientAddress); }
    /** When the holder connected. */
    public Optional<Instant> backendStart() { return Optional.ofNullable(backendStart); }
    /** When a waiter started waiting (PostgreSQL 14+). */
    public Optional<Instant> waitStart() { return Optional.ofNullable(waitStart); }

    @Override
    public String toString() {
        return "Holder(" + key + ", server id " + serverId + (granted ? ", granted" : ", waiting")
                + (applicationName.isEmpty() ? "" : ", " + applicationName) + ")";
    }

    private static Optional<String> text(String s) {
        return s == null || s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    private static Instant instant(long unixMicros) {
        return unixMicros == 0 ? null : Instant.ofEpochSecond(0, unixMicros * 1000);
    }
}
