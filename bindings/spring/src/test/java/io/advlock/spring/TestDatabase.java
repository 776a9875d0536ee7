package io.advlock.spring;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The real PostgreSQL the tests run on (never a mock): ADVLOCK_TEST_PG_URL, which
 * scripts/with-postgres.sh and scripts/pg-start.sh's env file set. Without it the tests fail at
 * once saying so, rather than start a server of their own (bindings/java's tests do that).
 */
public final class TestDatabase {
    private TestDatabase() {}

    /** postgresql://user:password@host:port/db */
    public static String url() {
        String url = System.getenv("ADVLOCK_TEST_PG_URL");
        if (url == null || url.isEmpty()) {
            throw new IllegalStateException("ADVLOCK_TEST_PG_URL is not set: run the tests under "
                    + "scripts/with-postgres.sh, or source the env file scripts/pg-start.sh writes");
        }
        return url;
    }

    public static HikariDataSource pool() {
        URI uri = URI.create(url());
        String[] credentials = uri.getUserInfo().split(":", 2);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath());
        config.setUsername(credentials[0]);
        config.setPassword(credentials[1]);
        config.setMaximumPoolSize(4);
        return new HikariDataSource(config);
    }

    /** A plain connection of its own, as another node or psql would be. */
    public static Connection connect() throws SQLException {
        URI uri = URI.create(url());
        String[] credentials = uri.getUserInfo().split(":", 2);
        return DriverManager.getConnection("jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(),
                credentials[0], credentials[1]);
    }

    /** One boolean query's answer on a connection of its own. */
    public static boolean ask(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            rows.next();
            return rows.getBoolean(1);
        }
    }

    /** End a backend, as a DBA or a failover would. */
    public static void terminate(long pid) throws SQLException {
        if (!ask("SELECT pg_terminate_backend(" + pid + ")")) {
            throw new IllegalStateException("could not terminate backend " + pid);
        }
    }

    /** True while some session waits (not granted) for an advisory lock: a waiter is in place. */
    public static boolean someoneWaits() throws SQLException {
        return ask("SELECT count(*) > 0 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
    }
}
