package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * advlock as a named module: a small application module, compiled here against
 * what the tests run on (target/classes, or the jar in scripts/test-java.sh's
 * second run), reads io.advlock, loads the native library and runs on the
 * module path with the flag users are told to give; a module that names
 * io.advlock.internal does not compile.
 */
class ModulePathTest {
    @TempDir Path work;

    private static Path advlock() throws Exception {
        return Path.of(LockSession.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** javac's exit status; its messages in MESSAGES. */
    private static int compile(Path sources, Path out, ByteArrayOutputStream messages) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assumeTrue(javac != null, "this Java (" + System.getProperty("java.home") + ") has no compiler: not a JDK");
        // An empty class path: javac in process would otherwise see the tests' own (target/classes included).
        Path noClasses = Files.createDirectories(out.resolveSibling(out.getFileName() + "-classpath"));
        List<String> args = new java.util.ArrayList<>(List.of("--module-path", advlock().toString(), "--class-path",
                                                              noClasses.toString(), "-d", out.toString()));
        try (var files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> args.add(f.toString()));
        }
        return javac.run(null, messages, messages, args.toArray(new String[0]));
    }

    private Path module(String name, String main) throws Exception {
        Path src = work.resolve(name + "-src");
        Files.createDirectories(src.resolve("demo"));
        Files.writeString(src.resolve("module-info.java"), "module demo { requires io.advlock; }\n");
        Files.writeString(src.resolve("demo/Main.java"), main);
        return src;
    }

    @Test
    void runsOnTheModulePathWithOnlyIoAdvlockExported() throws Exception {
        Path src = module("app", "package demo;\n"
                + "public class Main {\n"
                + "  public static void main(String[] args) {\n"
                + "    io.advlock.Key key = io.advlock.Key.parse(\"100:1\");\n"
                + "    Module advlock = io.advlock.Key.class.getModule();\n"
                + "    System.out.println(advlock.getName() + \" exports io.advlock=\" + advlock.isExported(\"io.advlock\")\n"
                + "        + \" io.advlock.internal=\" + advlock.isExported(\"io.advlock.internal\") + \" \" + key);\n"
                + "  }\n"
                + "}\n");
        Path out = work.resolve("app");
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        assertEquals(0, compile(src, out, messages), messages.toString(StandardCharsets.UTF_8));

        ChildJvm.Result child = ChildJvm.run(List.of(ChildJvm.java(), "--enable-native-access=io.advlock",
                "--module-path", advlock() + File.pathSeparator + out, "-m", "demo/demo.Main"));
        assertEquals(0, child.status, child::toString);
        assertEquals("io.advlock exports io.advlock=true io.advlock.internal=false 100:1\n", child.out,
                     child::toString);
        assertFalse(child.err.contains(ChildJvm.RESTRICTED_WARNING), child::toString);
    }

    @Test
    void theSwigPackageIsNotVisibleToModules() throws Exception {
        Path src = module("peek", "package demo;\n"
                + "public class Main {\n"
                + "  public static void main(String[] args) { io.advlock.internal.NativeLibrary.load(); }\n"
                + "}\n");
        ByteArrayOutputStream messages = new ByteArrayOutputStream();
        assertNotEquals(0, compile(src, work.resolve("peek"), messages));
        String text = messages.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("does not export it"), text);
    }
}
