package io.advlock;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A second JVM like the one running the tests (same java.home), for what one
 * process cannot show about itself: loader warnings, what loading maps, a
 * second lock holder. Passes --enable-native-access as users are told to.
 */
public final class ChildJvm {
    /** What the JDK prints (Java 24+) when System.load runs without native access enabled. */
    public static final String RESTRICTED_WARNING = "restricted method";

    private ChildJvm() {}

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** java --enable-native-access=ALL-UNNAMED -cp <the tests' classpath> MAIN ARGS... */
    public static List<String> command(Class<?> main, String... args) {
        List<String> command = new ArrayList<>(List.of(java(), "--enable-native-access=ALL-UNNAMED",
                                                       "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** A finished child: exit status, stdout, stderr. */
    public static final class Result {
        public final int status;
        public final String out;
        public final String err;

        Result(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        @Override
        public String toString() {
            return "exit " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** Runs COMMAND to its end; stderr goes to a file so neither pipe can fill and stall the child. */
    public static Result run(List<String> command) throws IOException, InterruptedException {
        Path err = Files.createTempFile("advlock-child.", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
            process.getOutputStream().close();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int status = process.waitFor();
            return new Result(status, out, Files.readString(err));
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
