package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The status table of the C ABI (advlock_status_at) against this binding's exception classes. */
class ErrorsTest {
    @Test
    void everyStatusHasItsClassUnderItsParent() {
        assertFalse(Statuses.rows().isEmpty(), "the C ABI gave no status table");
        for (Statuses.Row row : Statuses.rows()) {
            if (Statuses.isSuccess(row)) continue;
            Class<? extends AdvlockException> type = Statuses.classOf(row.className);
            assertNotNull(type, row.name + " (" + row.kind + ") has no class " + row.className);
            Class<? extends AdvlockException> parent = Statuses.classOf(Statuses.parentClassName(row));
            assertNotNull(parent, row.name + ": its parent " + row.parent + " has no class");
            assertSame(parent, type.getSuperclass(), row.className + " extends " + Statuses.parentClassName(row));
            AdvlockException e = AdvlockException.create(row.status, "m", "42000");
            assertSame(type, e.getClass(), row.name);
            assertEquals(row.status, e.status(), row.name);
            assertEquals("m", e.getMessage());
            assertEquals("42000", e.sqlstate());
        }
    }

    @Test
    void aStatusTheTableLacksIsAnAdvlockException() {
        int unknown = 1;
        for (Statuses.Row row : Statuses.rows()) unknown = Math.max(unknown, Math.abs(row.status) + 1);
        for (int status : new int[] {unknown, -unknown}) {
            AdvlockException e = AdvlockException.create(status, "from a newer library", "");
            assertSame(AdvlockException.class, e.getClass());
            assertEquals(status, e.status());
            assertEquals("", Statuses.nameOf(status));
        }
    }

    @Test
    void unsafeTargetsShareTheirBase() {
        Statuses.Row cluster = row("cluster_target");
        AdvlockException e = AdvlockException.create(cluster.status, "a Galera node", "");
        assertInstanceOf(ClusterTargetException.class, e);
        assertInstanceOf(UnsafeTargetException.class, e);
        assertEquals("a Galera node", e.getMessage());
    }

    @Test
    void fencedOutIsALockLoss() {
        AdvlockException e = AdvlockException.create(row("fenced_out").status, "a newer holder", "55T01");
        assertInstanceOf(FencedOutException.class, e);
        assertInstanceOf(LockLostException.class, e);
        assertEquals(LockLostException.class.getName(), Statuses.parentClassName(row("fenced_out")));
    }

    @Test
    void namingRule() {
        assertEquals("io.advlock.CapacityException", Statuses.javaName("CapacityError"));
        assertEquals("io.advlock.LockLostException", Statuses.javaName("LockLost"));
        assertEquals("io.advlock.FileException", Statuses.javaName("FileError"));
        assertEquals(FileException.class.getName(), row("file_error").className);
        assertEquals(UnsafeTargetException.class.getName(), Statuses.parentClassName(row("standby_target")));
    }

    private static Statuses.Row row(String kind) {
        return Statuses.rows().stream().filter(r -> r.kind.equals(kind)).findFirst()
                .orElseThrow(() -> new AssertionError("no status " + kind));
    }
}
