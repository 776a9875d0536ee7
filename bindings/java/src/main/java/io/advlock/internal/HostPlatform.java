package io.advlock.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What this JVM runs on, in the words the jar's native index uses ("linux-x86_64") and for error messages. */
final class HostPlatform {
    private static final Pattern GLIBC_RELEASE = Pattern.compile("release version (\\d+\\.\\d+)");

    private HostPlatform() {}

    /** "linux-x86_64", "linux-aarch64", "macosx-aarch64"...: os.name and os.arch, normalised. */
    static String platform() {
        return platform(System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    static String platform(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT).startsWith("linux") ? "linux"
                : osName.toLowerCase(Locale.ROOT).replace(" ", "");
        String arch = "amd64".equals(osArch) ? "x86_64" : osArch;
        return os + "-" + arch;
    }

    /** "linux-x86_64, glibc 2.36": the platform and, where it can be told, the C library and its version. */
    static String describe() {
        return platform() + ", " + libc();
    }

    /**
     * The C library mapped into this process. glibc says its version in a string
     * ("... stable release version 2.36.") inside libc.so.6; only read on failure.
     */
    private static String libc() {
        String maps;
        try {
            maps = Files.readString(Path.of("/proc/self/maps"), StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "C library not detected";
        }
        if (maps.contains("ld-musl")) return "musl libc (not glibc)";
        for (String line : maps.split("\n")) {
            int slash = line.indexOf('/');
            if (slash < 0 || !line.endsWith("/libc.so.6")) continue;
            try {
                String text = new String(Files.readAllBytes(Path.of(line.substring(slash))), StandardCharsets.ISO_8859_1);
                Matcher release = GLIBC_RELEASE.matcher(text);
                if (text.contains("GNU C Library") && release.find()) return "glibc " + release.group(1);
            } catch (IOException | RuntimeException e) {
                break;
            }
        }
        return "glibc version not detected";
    }
}
