package io.advlock.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads the JNI library the jar carries (native/linux-x86_64/libadvlock_java.so)
 * without -Djava.library.path: copied to a private temporary file, loaded,
 * and deleted. -Dadvlock.native.library=/path/libadvlock_java.so loads another.
 */
public final class NativeLibrary {
    private static boolean loaded;

    private NativeLibrary() {}

    public static synchronized void load() {
        if (loaded) return;
        String override = System.getProperty("advlock.native.library");
        if (override != null) {
            System.load(override);
            loaded = true;
            return;
        }
        String platform = platform();
        String resource = "/native/" + platform + "/libadvlock_java.so";
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("advlock: this jar carries no native library for " + platform
                        + " (looked for " + resource + "); build the jar on that platform with `mvn package`");
            }
            Path file = Files.createTempFile("advlock-java-", ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } finally {
                Files.deleteIfExists(file);  // the mapping stays valid after the file is gone
            }
            loaded = true;
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("advlock: cannot unpack the native library: " + e.getMessage());
        }
    }

    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase().startsWith("linux") ? "linux" : System.getProperty("os.name");
        String arch = System.getProperty("os.arch");
        return os + "-" + ("amd64".equals(arch) ? "x86_64" : arch);
    }
}
