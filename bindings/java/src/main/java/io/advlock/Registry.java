package io.advlock;

import io.advlock.internal.NativeLibrary;
import io.advlock.internal.NativeRegistry;
import io.advlock.internal.NativeRegistryEntry;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A registry file (TOML) naming each lock and its key, read by the advlock
 * core: the same file the command line and every binding read.
 */
public final class Registry implements AutoCloseable {
    static {
        NativeLibrary.load();
    }

    private NativeRegistry registry;

    private Registry(NativeRegistry registry) {
        this.registry = registry;
    }

    /** Throws {@link RegistryException} ("file:line: ...") or an AdvlockException for a file that cannot be read. */
    public static Registry open(Path path) {
        if (path == null) throw new InvalidArgumentException("registry path is null", "");
        return new Registry(NativeRegistry.open(path.toString()));
    }

    public static Registry parse(String text, String origin) {
        return new Registry(NativeRegistry.parse(Key.requireText(text, "registry text"), origin));
    }

    /**
     * The key of the named lock; throws {@link NotFoundException} (naming the closest name). An entry without a
     * key of its own locks its name: the key keeps the name ({@link Key#name()}), as MySQL locks names.
     */
    public Key key(String name) {
        NativeRegistryEntry entry = handle().find(Key.requireText(name, "lock name"));
        try {
            return Key.of(entry.getKey());
        } finally {
            entry.delete();
        }
    }

    /** The name of the lock with this key, if the registry has one. */
    public Optional<String> nameOf(Key key) {
        NativeRegistryEntry entry = handle().findKey(key.toNative());
        try {
            return entry.getName().isEmpty() ? Optional.empty() : Optional.of(entry.getName());
        } finally {
            entry.delete();
        }
    }

    public int size() {
        return (int) handle().size();
    }

    @Override
    public synchronized void close() {
        if (registry != null) {
            registry.delete();
            registry = null;
        }
    }

    synchronized NativeRegistry handle() {
        if (registry == null) throw new MisuseException("advlock: the registry is closed", "");
        return registry;
    }
}
