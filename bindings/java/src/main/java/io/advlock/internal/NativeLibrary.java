package io.advlock.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Loads the JNI library the jar carries without -Djava.library.path.
 *
 * <p>native/index.properties (written at build time by bundle-native.sh) lists,
 * per platform, libadvlock_java.so and the libraries it needs beyond glibc and
 * libstdc++ (libpq, the MariaDB client, OpenSSL, Kerberos...). They are copied
 * into one private temporary directory, where their RUNPATH ($ORIGIN) lets the
 * dynamic loader find one another; the directory is deleted once they are
 * loaded, as the mappings outlive the files. -Dadvlock.native.library=/path/to
 * /libadvlock_java.so loads another build instead.
 */
public final class NativeLibrary {
    static final String INDEX = "/native/index.properties";
    private static boolean loaded;

    private NativeLibrary() {}

    public static synchronized void load() {
        if (loaded) return;
        String override = System.getProperty("advlock.native.library");
        if (override != null) {
            loadFile(Path.of(override), NativeRequirements.NONE);
        } else {
            NativeRequirements needs = NativeRequirements.forHost(index());
            loadBundled(needs);
        }
        loaded = true;
    }

    /** System.load, with an error that says what the host lacks. */
    static void loadFile(Path library, NativeRequirements needs) {
        try {
            System.load(library.toAbsolutePath().toString());
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError explained = new UnsatisfiedLinkError(
                    NativeRequirements.explain(e.getMessage(), needs, HostPlatform.describe()));
            explained.initCause(e);
            throw explained;
        }
    }

    private static void loadBundled(NativeRequirements needs) {
        Path dir;
        try {
            dir = Files.createTempDirectory("advlock-java-");
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("advlock: cannot unpack the native library into " + tmpdir() + ": " + e
                    + "; set -Djava.io.tmpdir to a writable directory");
        }
        try {
            for (String name : needs.libraries) {
                String resource = "/native/" + needs.platform + "/" + name;
                try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
                    if (in == null) throw new UnsatisfiedLinkError("advlock: the jar lists " + resource
                            + " in " + INDEX + " but does not carry it; the jar is damaged, rebuild it");
                    Files.copy(in, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            loadFile(dir.resolve(needs.libraries.get(0)), needs);
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("advlock: cannot unpack the native library into " + dir + ": " + e);
        } finally {
            deleteTree(dir);
        }
    }

    private static Properties index() {
        Properties index = new Properties();
        try (InputStream in = NativeLibrary.class.getResourceAsStream(INDEX)) {
            if (in == null) throw new UnsatisfiedLinkError("advlock: this jar carries no native library (" + INDEX
                    + " is missing); build it with `mvn package` in bindings/java");
            index.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("advlock: cannot read " + INDEX, e);
        }
        return index;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> all = new ArrayList<>();
            files.sorted(Comparator.reverseOrder()).forEach(all::add);
            for (Path file : all) Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // A leftover temporary directory is harmless; failing the load over it is not.
        }
    }

    private static String tmpdir() {
        return System.getProperty("java.io.tmpdir");
    }
}
