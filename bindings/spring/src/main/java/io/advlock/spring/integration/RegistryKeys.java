package io.advlock.spring.integration;

import io.advlock.Key;
import java.math.BigInteger;

/** The advlock key of a lock registry key: the few types whose mapping is obvious, nothing guessed. */
final class RegistryKeys {
    private RegistryKeys() {}

    /** String → Key.fromName, integral Number → Key.bigint, Key as is; anything else refused. */
    static Key of(Object key) {
        if (key == null) throw new IllegalArgumentException("advlock: the lock key is null");
        if (key instanceof Key) return (Key) key;
        if (key instanceof String) return Key.fromName((String) key);
        if (key instanceof Long || key instanceof Integer || key instanceof Short || key instanceof Byte) {
            return Key.bigint(((Number) key).longValue());
        }
        if (key instanceof BigInteger) {
            try {
                return Key.bigint(((BigInteger) key).longValueExact());
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("advlock: the lock key " + key + " does not fit a bigint key (64 bits)");
            }
        }
        // A Double or an AtomicLong has no one obvious key; toString() would make any object a name by accident.
        throw new IllegalArgumentException("advlock: a lock key of type " + key.getClass().getName() + " has no advlock "
                + "key; use a String (a name, Key.fromName), a Long/Integer/Short/Byte/BigInteger (a bigint key) "
                + "or an io.advlock.Key");
    }
}
