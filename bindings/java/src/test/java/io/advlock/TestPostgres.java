package io.advlock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The real PostgreSQL the tests use (never a mock): ADVLOCK_TEST_PG_URL when
 * scripts/with-postgres.sh set it, else a throwaway server started here with
 * scripts/pg-start.sh and stopped when the JVM exits, failed tests or not.
 */
final class TestPostgres {
    private static String url;

    private TestPostgres() {}

    static Path repoRoot() {
        String root = System.getenv("ADVLOCK_REPO_ROOT");
        return (root != null ? Paths.get(root) : Paths.get("../..")).toAbsolutePath().normalize();
    }

    static synchronized String url() {
        if (url != null) return url;
        String given = System.getenv("ADVLOCK_TEST_PG_URL");
        if (given != null && !given.isEmpty()) return url = given;
        try {
            Path state = Files.createTempDirectory("advlock-junit-pg.");
            run(repoRoot().resolve("scripts/pg-start.sh").toString(), state.toString());  // its report goes to stderr
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    run(repoRoot().resolve("scripts/pg-stop.sh").toString(), state.toString());
                } catch (IOException e) {
                    System.err.println("advlock tests: could not stop the test server: " + e.getMessage());
                }
            }));
            return url = Files.readString(state.resolve("url")).trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start a test PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** A JDBC connection for looking at and disturbing the server. */
    static Connection jdbc() throws SQLException {
        String[] credentials = java.net.URI.create(url()).getUserInfo().split(":", 2);
        return jdbc(credentials[0], credentials[1]);
    }

    /** The same server as another role. */
    static Connection jdbc(String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return DriverManager.getConnection(jdbcUrl(), properties);
    }

    /** postgresql://user:password@host:port/db → jdbc:postgresql://host:port/db (no credentials). */
    static String jdbcUrl() {
        java.net.URI uri = java.net.URI.create(url());
        return "jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath();
    }

    /** Backend pids holding key, straight from pg_locks. */
    static List<Long> holders(Key key) throws SQLException {
        String where = key.isPair()
                ? "classid = " + Integer.toUnsignedLong(key.k1()) + " AND objid = " + Integer.toUnsignedLong(key.k2())
                  + " AND objsubid = 2"
                : "classid = " + ((key.bigintValue() >>> 32)) + " AND objid = " + (key.bigintValue() & 0xffffffffL)
                  + " AND objsubid = 1";
        try (Connection c = jdbc(); var rows = c.createStatement().executeQuery(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND " + where + " ORDER BY pid")) {
            List<Long> pids = new ArrayList<>();
            while (rows.next()) pids.add(rows.getLong(1));
            return pids;
        }
    }

    static void terminate(long pid) throws SQLException {
        try (Connection c = jdbc(); var rows = c.createStatement().executeQuery("SELECT pg_terminate_backend(" + pid + ")")) {
            rows.next();
            if (!rows.getBoolean(1)) throw new IllegalStateException("could not terminate backend " + pid);
        }
    }

    private static void run(String... command) throws IOException {
        // Surefire owns the JVM's stdout: the scripts' report goes to stderr.
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            if (process.waitFor() != 0) throw new IOException(String.join(" ", command) + " failed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
