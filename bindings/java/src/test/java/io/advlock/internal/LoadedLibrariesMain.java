package io.advlock.internal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/** Child JVM for NativeBundleTest: prints each file loading the native library newly maps, one per line. */
public final class LoadedLibrariesMain {
    private static Set<String> mappedFiles() throws Exception {
        Set<String> files = new TreeSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
            int slash = line.indexOf('/');
            if (slash >= 0) files.add(line.substring(slash));
        }
        return files;
    }

    public static void main(String[] args) throws Exception {
        Set<String> before = mappedFiles();
        NativeLibrary.load();
        Set<String> after = mappedFiles();
        after.removeAll(before);
        after.forEach(System.out::println);
    }
}
