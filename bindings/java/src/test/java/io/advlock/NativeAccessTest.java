package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Java 24+ warns when System.load runs in code not granted native access
 * (JEP 472). The documented flag must silence it; without the flag the warning
 * must show, or the first test could pass for having checked nothing.
 */
class NativeAccessTest {
    @Test
    void theFlagSilencesTheRestrictedMethodWarning() throws Exception {
        ChildJvm.Result child = ChildJvm.run(ChildJvm.command(NativeAccessMain.class));
        assertEquals(0, child.status, child::toString);
        assertEquals("100:1\n", child.out, child::toString);
        assertFalse(child.err.contains(ChildJvm.RESTRICTED_WARNING), child::toString);
    }

    @Test
    void withoutTheFlagJava24AndLaterWarn() throws Exception {
        assumeTrue(Runtime.version().feature() >= 24,
                   "Java " + Runtime.version().feature() + " has no restricted-method warnings (they start at 24)");
        List<String> command = ChildJvm.command(NativeAccessMain.class);
        command.removeIf(arg -> arg.startsWith("--enable-native-access"));
        ChildJvm.Result child = ChildJvm.run(command);
        assertEquals(0, child.status, child::toString);
        assertTrue(child.err.contains(ChildJvm.RESTRICTED_WARNING), child::toString);
    }
}
