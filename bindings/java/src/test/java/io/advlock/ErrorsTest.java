package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;

class ErrorsTest {
    @Test
    void unsafeTargetsShareTheirBase() {
        assertInstanceOf(StandbyTargetException.class, AdvlockException.create(-10, "m", ""));
        assertInstanceOf(ReadOnlyTargetException.class, AdvlockException.create(-11, "m", ""));
        assertInstanceOf(PoolerTargetException.class, AdvlockException.create(-12, "m", ""));
        AdvlockException cluster = AdvlockException.create(-21, "a Galera node", "");
        assertInstanceOf(ClusterTargetException.class, cluster);
        assertInstanceOf(UnsafeTargetException.class, cluster);
        assertEquals(-21, cluster.status());
        assertEquals("a Galera node", cluster.getMessage());
        assertInstanceOf(UnsafeLockDirectoryException.class, AdvlockException.create(-22, "m", ""));
    }

    @Test
    void unsupportedHasItsClass() {
        assertInstanceOf(UnsupportedException.class, AdvlockException.create(-19, "no shared mode", ""));
    }
}
