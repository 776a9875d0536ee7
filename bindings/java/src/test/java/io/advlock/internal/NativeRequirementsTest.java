package io.advlock.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The loader's errors name what is missing, what the jar supports and what the host is. */
class NativeRequirementsTest {
    private static final String HOST = "linux-x86_64, glibc 2.31";

    private static Properties index() throws Exception {
        Properties index = new Properties();
        index.load(new StringReader("platforms=linux-x86_64\nlinux-x86_64.glibc=2.34\n"
                + "linux-x86_64.glibcxx=3.4.30\nlinux-x86_64.libraries=libadvlock_java.so libpq.so.5\n"));
        return index;
    }

    private static NativeRequirements needs() throws Exception {
        return NativeRequirements.forPlatform(index(), "linux-x86_64", "Linux", "amd64");
    }

    @Test
    void theJarsOwnIndexStatesItsPlatformAndMinimumGlibc() throws Exception {
        Properties index = new Properties();
        try (var in = NativeLibrary.class.getResourceAsStream(NativeLibrary.INDEX)) {
            index.load(in);
        }
        assertEquals("linux-x86_64", index.getProperty("platforms"));
        assertTrue(index.getProperty("linux-x86_64.glibc").matches("2\\.\\d+"), index.toString());
        assertTrue(index.getProperty("linux-x86_64.libraries").startsWith("libadvlock_java.so libpq.so.5 "), index.toString());
    }

    @Test
    void anotherPlatformIsRefusedNamingWhatTheJarSupports() throws Exception {
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class,
                () -> NativeRequirements.forPlatform(index(), "linux-aarch64", "Linux", "aarch64"));
        assertEquals("advlock: this jar carries native code for linux-x86_64 (glibc >= 2.34, libstdc++ with "
                + "GLIBCXX_3.4.30) only; this JVM runs on linux-aarch64 (os.name=Linux, os.arch=aarch64). Build the jar "
                + "on that platform with `mvn package` in bindings/java.", e.getMessage());
    }

    @Test
    void platformNamesFollowTheIndex() {
        assertEquals("linux-x86_64", HostPlatform.platform("Linux", "amd64"));
        assertEquals("linux-aarch64", HostPlatform.platform("Linux", "aarch64"));
        assertEquals("macosx-aarch64", HostPlatform.platform("Mac OS X", "aarch64"));
    }

    @Test
    void anOldGlibcIsNamed() throws Exception {
        String error = "/tmp/advlock-java-1/libadvlock_java.so: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' "
                + "not found (required by /tmp/advlock-java-1/libmariadb.so.3)";
        assertEquals("advlock: cannot load its native library: " + error + ". The host's glibc is too old: it lacks "
                + "GLIBC_2.34. This jar supports linux-x86_64 (glibc >= 2.34, libstdc++ with GLIBCXX_3.4.30); this host is "
                + HOST + ".", NativeRequirements.explain(error, needs(), HOST));
    }

    @Test
    void anOldLibstdcxxIsNamed() throws Exception {
        String error = "/tmp/advlock-java-1/libadvlock_java.so: /lib64/libstdc++.so.6: version `GLIBCXX_3.4.30' not found";
        assertTrue(NativeRequirements.explain(error, needs(), HOST).contains(
                "The host's libstdc++ is too old: it lacks GLIBCXX_3.4.30."));
    }

    @Test
    void aMissingLibstdcxxIsNamedWithItsPackage() throws Exception {
        String error = "/tmp/advlock-java-1/libadvlock_java.so: libstdc++.so.6: cannot open shared object file: "
                + "No such file or directory";
        assertTrue(NativeRequirements.explain(error, needs(), HOST).contains(
                "The host lacks libstdc++.so.6 (the GNU C++ runtime: install libstdc++6 on Debian/Ubuntu"));
    }

    @Test
    void aNoexecTemporaryDirectoryIsSuspected() throws Exception {
        String error = "/tmp/advlock-java-1/libadvlock_java.so: failed to map segment from shared object";
        assertTrue(NativeRequirements.explain(error, needs(), HOST).contains("-Djava.io.tmpdir"));
    }

    /**
     * A real System.load failure goes through the same explanation. The file is
     * the java launcher, an executable that dlopen refuses (a non-ELF file would
     * do too, but makes HotSpot print a stack-guard warning).
     */
    @Test
    void aLibraryTheLoaderRejectsIsExplained() throws Exception {
        Path launcher = Path.of(System.getProperty("java.home"), "bin", "java");
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> NativeLibrary.loadFile(launcher, needs()));
        assertTrue(e.getMessage().startsWith("advlock: cannot load its native library: " + launcher), e.getMessage());
        assertTrue(e.getMessage().contains("This jar supports linux-x86_64 (glibc >= 2.34"), e.getMessage());
        assertTrue(e.getMessage().matches(".*this host is linux-\\S+, (glibc \\d+\\.\\d+|musl libc \\(not glibc\\))\\.$"),
                   e.getMessage());
        assertTrue(e.getCause() instanceof UnsatisfiedLinkError);
    }
}
