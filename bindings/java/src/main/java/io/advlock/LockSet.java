package io.advlock;

import io.advlock.internal.NativeLockSet;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A set of locks taken all or nothing ({@link LockSession#tryLockAll}, {@link LockSession#lockAll}):
 * it holds every one of its keys, and lets go of them together, in one round trip on PostgreSQL.
 * Release it with {@link #close()} (try-with-resources) or {@link #release()};
 * {@link #ensureHeld()} costs no round trip and throws {@link LockLostException} once any of its
 * locks is known lost (a session loses all of its locks at once).
 *
 * <pre>{@code
 * Optional<LockSet> locks = session.tryLockAll(List.of(Key.fromName("daily_sales"), Key.fromName("inventory")));
 * if (locks.isEmpty()) System.exit(3);            // one of them is held elsewhere: none is held here
 * try (LockSet held = locks.get()) { rebuild(held::ensureHeld); }
 * }</pre>
 *
 * <p>A LockSet dropped without release is released when the garbage collector frees it, as a
 * {@link Lock} is; release it yourself to see a loss.
 */
public final class LockSet extends Guard {
    private final List<Key> keys;

    LockSet(LockSession session, NativeLockSet handle, List<Key> keys, Mode mode, boolean reentrant) {
        super(session, handle, mode, reentrant);
        this.keys = keys;
    }

    /** The keys, in the order they were asked for (the core takes them in its own order, by key). */
    public List<Key> keys() {
        return keys;
    }

    public int size() {
        return keys.size();
    }

    @Override
    public String toString() {
        return "LockSet(" + join(keys) + traits() + ")";
    }

    /** "K1, K2": how toString and messages list a set's keys. */
    static String join(List<Key> keys) {
        return keys.stream().map(Key::toString).collect(Collectors.joining(", "));
    }
}
