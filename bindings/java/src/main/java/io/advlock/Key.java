package io.advlock;

import io.advlock.internal.NativeKey;
import io.advlock.internal.NativeLibrary;
import java.util.Optional;

/**
 * A PostgreSQL advisory-lock key: a bigint, or a pair of int4 ("category, job
 * id", as in a hand-kept table of batch locks). A value: equal keys name the
 * same lock. Names become keys in the advlock core, so every language derives
 * the same key from the same name.
 *
 * <pre>{@code
 * Key.pair(100, 1)              // pg_try_advisory_lock(100, 1)
 * Key.bigint(7001)              // pg_try_advisory_lock(7001)
 * Key.fromName("daily_sales")   // advlock's frozen SHA-256 scheme
 * Key.parse("100:1")            // the text form the command line uses
 * }</pre>
 *
 * <p>A key made from a name keeps the name ({@link #name()}): a MySQL or
 * MariaDB session locks the name itself (GET_LOCK('daily_sales')), where
 * PostgreSQL locks its number. Equality compares the numbers only.
 */
public final class Key {
    static {
        NativeLibrary.load();
    }

    // The core's target (key and name), owned by this Key and freed by its
    // finalization once no Key or call uses it; the fields below are read from it
    // once, for equals, hashCode and the accessors.
    private final NativeKey nativeKey;
    private final boolean pair;
    private final int k1;
    private final int k2;
    private final long bigint;
    private final String name;  // null: not made from a name
    private final String text;

    private Key(NativeKey key) {
        nativeKey = key;
        pair = key.isPair();
        k1 = pair ? key.k1() : 0;
        k2 = pair ? key.k2() : 0;
        bigint = pair ? 0 : key.bigintValue();
        name = key.hasName() ? key.name() : null;
        text = key.toString();
    }

    public static Key bigint(long value) {
        return new Key(NativeKey.bigint(value));
    }

    public static Key pair(int k1, int k2) {
        return new Key(NativeKey.pair(k1, k2));
    }

    /**
     * advlock's scheme: the first 8 bytes of SHA-256("advlock:" + name); the key keeps the name.
     * Throws BadKeyException.
     */
    public static Key fromName(String name) {
        return new Key(NativeKey.fromName(requireText(name, "name")));
    }

    /** The with_advisory_lock gem's scheme: (crc32(name) &amp; 0x7fffffff, prefix &amp; 0x7fffffff). */
    public static Key fromNameCompat(String name, long prefix) {
        return new Key(NativeKey.fromNameCompat(requireText(name, "name"), prefix));
    }

    /** "100:1" (pair), "-42" (bigint) or "name:TEXT" (which keeps the name). Throws BadKeyException. */
    public static Key parse(String text) {
        return new Key(NativeKey.parse(requireText(text, "key text")));
    }

    /**
     * The name the key was made from ({@link #fromName}, "name:TEXT", a registry entry without a key of its
     * own), if any. A MySQL session locks this name itself.
     */
    public Optional<String> name() {
        return Optional.ofNullable(name);
    }

    public boolean isPair() {
        return pair;
    }

    /** The first number of a pair key (pg_locks.classid). */
    public int k1() {
        requirePair(true);
        return k1;
    }

    /** The second number of a pair key (pg_locks.objid). */
    public int k2() {
        requirePair(true);
        return k2;
    }

    /** The number of a bigint key. */
    public long bigintValue() {
        requirePair(false);
        return bigint;
    }

    /**
     * The key of slot n (1 to 64) of this lock, as a lock taken with {@link LockOptions#slots(int)}
     * holds it: a bigint derived by advlock's frozen rule (advlock_key_slot), the same in every
     * language, the command and psql. Throws {@link InvalidArgumentException} for another n.
     */
    public Key slot(int n) {
        return new Key(nativeKey.slot(n));
    }

    /** The canonical text: "100:1" or "-42"; {@link #parse} reads it back. */
    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof Key)) return false;
        Key that = (Key) other;
        return pair == that.pair && k1 == that.k1 && k2 == that.k2 && bigint == that.bigint;
    }

    @Override
    public int hashCode() {
        return pair ? 31 * (31 + k1) + k2 : Long.hashCode(bigint) * 7 + 1;
    }

    /** The statement advlock would run for this key, for running it through JDBC. */
    String sql(String kind, Mode mode) {
        return toNative().sql(kind, mode == Mode.SHARED);
    }

    /**
     * One step's statement of the core's timed transaction-scoped wait (advlock_xact_wait_sql), for running
     * it through JDBC; saved is read by "restore_timeout" only.
     */
    String xactWaitSql(String step, Mode mode, long timeoutMs, String saved) {
        return toNative().xactWaitSql(step, mode == Mode.SHARED, timeoutMs, saved == null ? "" : saved);
    }

    /** What that statement's boolean answer means (throws LockLostException for a failed unlock). */
    boolean sqlResult(String kind, boolean answer) {
        return toNative().sqlResult(kind, answer);
    }

    /** The native key, owned by this Key: callers must not delete it. */
    NativeKey toNative() {
        return nativeKey;
    }

    /** A Key owning a native key the native side returned by value (it is the caller's already). */
    static Key own(NativeKey owned) {
        return new Key(owned);
    }

    /** A Key of its own copy of a key the native side lends (a holder row's, a registry entry's). */
    static Key of(NativeKey borrowed) {
        return new Key(new NativeKey(borrowed));
    }

    static String requireText(String text, String what) {
        if (text == null) throw new InvalidArgumentException(what + " is null", "");
        return text;
    }

    private void requirePair(boolean wanted) {
        if (pair != wanted) {
            throw new IllegalStateException("key " + this + " is a " + (pair ? "pair" : "bigint") + " key");
        }
    }
}
