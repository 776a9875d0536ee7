package io.advlock.internal;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the jar's native code needs from the host, as native/index.properties
 * states it (bundle-native.sh computes the minimum glibc and libstdc++ from the
 * symbol versions the shipped files require), and the error text that tells a
 * user which of it is missing.
 */
final class NativeRequirements {
    /** For -Dadvlock.native.library: a library built elsewhere, whose needs the jar does not know. */
    static final NativeRequirements NONE = new NativeRequirements(null, null, null, List.of(), null);

    private static final Pattern MISSING_VERSION = Pattern.compile("version `((GLIBC|GLIBCXX|CXXABI)_[^']+)' not found");
    private static final Pattern MISSING_FILE = Pattern.compile("([^\\s:/]+): cannot open shared object file");

    final String platform;
    final String glibc;
    final String glibcxx;
    final List<String> libraries;
    /** "linux-x86_64 (glibc >= 2.34, libstdc++ with GLIBCXX_3.4.30)", per platform the jar carries. */
    final String supported;

    private NativeRequirements(String platform, String glibc, String glibcxx, List<String> libraries, String supported) {
        this.platform = platform;
        this.glibc = glibc;
        this.glibcxx = glibcxx;
        this.libraries = libraries;
        this.supported = supported;
    }

    static NativeRequirements forHost(Properties index) {
        return forPlatform(index, HostPlatform.platform(), System.getProperty("os.name"), System.getProperty("os.arch"));
    }

    /** The needs for PLATFORM; an UnsatisfiedLinkError naming what the jar supports if it carries none. */
    static NativeRequirements forPlatform(Properties index, String platform, String osName, String osArch) {
        List<String> platforms = Arrays.asList(index.getProperty("platforms", "").trim().split("\\s+"));
        StringBuilder supported = new StringBuilder();
        for (String each : platforms) {
            if (supported.length() > 0) supported.append("; ");
            supported.append(each).append(" (glibc >= ").append(index.getProperty(each + ".glibc"))
                     .append(", libstdc++ with GLIBCXX_").append(index.getProperty(each + ".glibcxx")).append(')');
        }
        if (!platforms.contains(platform)) {
            throw new UnsatisfiedLinkError("advlock: this jar carries native code for " + supported + " only; this JVM runs on "
                    + platform + " (os.name=" + osName + ", os.arch=" + osArch + "). Build the jar on that platform with "
                    + "`mvn package` in bindings/java.");
        }
        List<String> libraries = Arrays.asList(index.getProperty(platform + ".libraries", "").trim().split("\\s+"));
        return new NativeRequirements(platform, index.getProperty(platform + ".glibc"),
                index.getProperty(platform + ".glibcxx"), libraries, supported.toString());
    }

    /** The message for an UnsatisfiedLinkError: the loader's words, what they mean, what the jar needs, what the host has. */
    static String explain(String loaderError, NativeRequirements needs, String host) {
        StringBuilder text = new StringBuilder("advlock: cannot load its native library: ").append(loaderError).append('.');
        Matcher version = MISSING_VERSION.matcher(loaderError);
        Matcher file = MISSING_FILE.matcher(loaderError);
        if (version.find()) {
            String library = version.group(2).equals("GLIBC") ? "glibc" : "libstdc++";
            text.append(" The host's ").append(library).append(" is too old: it lacks ").append(version.group(1)).append('.');
        } else if (file.find()) {
            text.append(" The host lacks ").append(file.group(1)).append(file.group(1).startsWith("libstdc++")
                    ? " (the GNU C++ runtime: install libstdc++6 on Debian/Ubuntu, libstdc++ on RHEL/Fedora)." : ".");
        } else if (loaderError.contains("failed to map segment")) {
            text.append(" The temporary directory is probably mounted noexec: point -Djava.io.tmpdir at one that is not.");
        }
        if (needs.platform != null) text.append(" This jar supports ").append(needs.supported).append(';');
        else text.append(" The file came from -Dadvlock.native.library, so the jar cannot say what it needs;");
        return text.append(" this host is ").append(host).append('.').toString();
    }
}
