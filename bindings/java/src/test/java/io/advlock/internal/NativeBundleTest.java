package io.advlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.advlock.ChildJvm;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The jar's native library takes nothing from the host but glibc and the C++
 * runtime: in a fresh JVM, every file that loading it maps is either one the
 * jar carried (extracted, then deleted) or one of those (or the JVM's own).
 */
class NativeBundleTest {
    private static final Pattern BUNDLED = Pattern.compile(".*/advlock-java-[^/]+/([^/]+) \\(deleted\\)");
    private static final Pattern HOST_PROVIDED = Pattern.compile(
            ".*/(ld-linux-x86-64\\.so\\.2|lib(c|m|dl|pthread|rt|resolv)\\.so\\.[0-9]+|libstdc\\+\\+\\.so\\.6[0-9.]*|libgcc_s\\.so\\.1)");

    @Test
    void loadingMapsOnlyBundledFilesAndGlibcAndLibstdcxx() throws Exception {
        Properties index = new Properties();
        try (var in = NativeLibrary.class.getResourceAsStream(NativeLibrary.INDEX)) {
            index.load(in);
        }
        List<String> carried = List.of(index.getProperty("linux-x86_64.libraries").split(" "));

        ChildJvm.Result child = ChildJvm.run(ChildJvm.command(LoadedLibrariesMain.class));
        assertEquals(0, child.status, child::toString);
        List<String> bundled = new ArrayList<>();
        List<String> fromHost = new ArrayList<>();
        for (String file : child.out.split("\n")) {
            Matcher m = BUNDLED.matcher(file);
            if (m.matches() && carried.contains(m.group(1))) bundled.add(m.group(1));
            // The JVM's own libraries (libzip.so, when reading the jar) are no concern of advlock's.
            else if (!HOST_PROVIDED.matcher(file).matches() && !file.startsWith(System.getProperty("java.home") + "/"))
                fromHost.add(file);
        }
        assertEquals(List.of(), fromHost, "taken from the host, beyond glibc and libstdc++:\n" + child);
        // The point of bundling: the database clients come from the jar, not the host.
        assertTrue(bundled.containsAll(List.of("libadvlock_java.so", "libpq.so.5", "libmariadb.so.3", "libssl.so.3")),
                   child::toString);
    }
}
