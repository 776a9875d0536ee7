package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * LockSession.open with the JDBC URL and the user/password a Java batch already has, against
 * the real server: a scram role whose password holds every character URLs and conninfo strings
 * treat specially, which must reach the server intact and never appear in a message.
 */
class JdbcUrlTest {
    private static final String ROLE = "advlock_odd";
    private static final String PASSWORD = "p w'q\"b\\s@c:d/e%f&g=h?i#j+k;l é";

    @BeforeAll
    static void createRole() throws Exception {
        try (Connection admin = TestPostgres.jdbc(); Statement statement = admin.createStatement()) {
            statement.execute("SET password_encryption = 'scram-sha-256'");
            statement.execute("DROP ROLE IF EXISTS " + ROLE);
            statement.execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD.replace("'", "''") + "'");
        }
    }

    @AfterAll
    static void dropRole() throws Exception {
        try (Connection admin = TestPostgres.jdbc(); Statement statement = admin.createStatement()) {
            statement.execute("DROP ROLE IF EXISTS " + ROLE);
        }
    }

    private static String encoded(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);  // as a batch's config would have it for pgjdbc
    }

    private static URI server() {
        return URI.create(TestPostgres.url());
    }

    private static String activity(LockSession session, String column) throws Exception {
        try (Connection c = TestPostgres.jdbc();
             PreparedStatement q = c.prepareStatement("SELECT " + column + " FROM pg_stat_activity WHERE pid = ?")) {
            q.setLong(1, session.serverId());
            try (var rows = q.executeQuery()) {
                assertTrue(rows.next());
                return rows.getString(1);
            }
        }
    }

    /** The session really is the role's, and locks as one. */
    private static void assertLocksAs(LockSession session) throws Exception {
        assertEquals(ROLE, activity(session, "usename"));
        Key key = Key.pair(600, 1);
        try (Lock lock = session.tryLock(key).orElseThrow()) {
            assertEquals(List.of(session.serverId()), TestPostgres.holders(key));
        }
    }

    @Test
    void jdbcUrlWithCredentialsAsParameters() throws Exception {
        String url = TestPostgres.jdbcUrl() + "?user=" + ROLE + "&password=" + encoded(PASSWORD)
                + "&ApplicationName=from-jdbc&prepareThreshold=0&connectTimeout=20";
        try (LockSession session = LockSession.open(url)) {
            assertLocksAs(session);
            assertEquals("from-jdbc", activity(session, "application_name"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"jdbc", "postgresql", "conninfo", "postgresql-with-user"})
    void credentialsInSessionOptions(String form) throws Exception {
        URI uri = server();
        String url;
        switch (form) {
            case "jdbc": url = TestPostgres.jdbcUrl(); break;
            case "postgresql": url = "postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(); break;
            case "postgresql-with-user":  // the options win over the URL's user:password@
                url = "postgresql://someone:else@" + uri.getHost() + ":" + uri.getPort() + uri.getPath(); break;
            default: url = "host=" + uri.getHost() + " port=" + uri.getPort() + " dbname=" + uri.getPath().substring(1);
        }
        try (LockSession session = LockSession.open(url, SessionOptions.defaults().user(ROLE).password(PASSWORD))) {
            assertLocksAs(session);
        }
    }

    @Test
    void aWrongPasswordIsNeverInTheMessage() {
        String wrong = PASSWORD + "x";
        ConnectException e = assertThrows(ConnectException.class, () -> LockSession.open(TestPostgres.jdbcUrl(),
                SessionOptions.defaults().user(ROLE).password(wrong)));
        assertFalse(e.getMessage().contains(wrong), e.getMessage());
        assertTrue(e.getMessage().contains("password authentication failed"), e.getMessage());
        e = assertThrows(ConnectException.class, () -> LockSession.open(
                TestPostgres.jdbcUrl() + "?user=" + ROLE + "&password=" + encoded(wrong)));
        assertFalse(e.getMessage().contains(wrong), e.getMessage());
        assertFalse(e.getMessage().contains(encoded(wrong)), e.getMessage());
        assertFalse(e.getMessage().contains("p w'q"), e.getMessage());
    }

    @Test
    void optionsToStringHidesThePassword() {
        String text = SessionOptions.defaults().user(ROLE).password(PASSWORD).toString();
        assertTrue(text.contains(ROLE), text);
        assertFalse(text.contains(PASSWORD), text);
        assertFalse(text.contains("p w'q"), text);
    }

    @Test
    void badJdbcUrlsAreInvalidArguments() {
        String[][] cases = {
            {"jdbc:oracle:thin:@db:1521:ORCL", "subprotocol \"oracle\""},
            {"jdbc:postgresql:sales", "names no host"},
            {"jdbc:postgresql:///sales", "names no host"},
            {"jdbc:postgresql://:5432/sales", "names no host"},
            {"jdbc:postgresql://db:port/sales", "port"},
            {"jdbc:postgresql://db/sales?frobnicate=1", "parameter \"frobnicate\""},
            {"jdbc:postgresql://db/sales?targetServerType=secondary", "standby"},
            {"jdbc:postgresql://db/sales?password=%zz", "'%'"},
            {"jdbc:mysql://a,b/sales", "several hosts"},
            {"jdbc:mysql:replication://a/sales", "driver mode"},
            {"jdbc:mariadb://db/sales?useSSL=true", "parameter \"useSSL\""},
        };
        for (String[] c : cases) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class, () -> LockSession.open(c[0]), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " → " + e.getMessage());
        }
    }

    @Test
    void userInfoInAPgjdbcUrlIsRefusedWithoutShowingIt() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> LockSession.open("jdbc:postgresql://batch:s3cr3t-pw@db:5432/sales"));
        assertTrue(e.getMessage().contains("user:password@"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cr3t"), e.getMessage());
    }

    @Test
    void localSessionsTakeNoCredentials() {
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> LockSession.open("local", SessionOptions.defaults().password("x")));
        assertTrue(e.getMessage().contains("no user or password"), e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> SessionOptions.defaults().password("a\0b"));
    }

    @Test
    void jdbcMariadbUrlOpensAMysqlSession() {
        String mysql = System.getenv("ADVLOCK_TEST_MYSQL_URL");
        Assumptions.assumeTrue(mysql != null && !mysql.isEmpty(), "ADVLOCK_TEST_MYSQL_URL is not set");
        URI uri = URI.create(mysql);  // mysql://advlock:PASSWORD@127.0.0.1:PORT/advlock
        String[] credentials = uri.getUserInfo().split(":", 2);
        String name = "jdbc_url_" + ProcessHandle.current().pid();
        for (String scheme : List.of("jdbc:mariadb://", "jdbc:mysql://")) {
            String url = scheme + uri.getHost() + ":" + uri.getPort() + uri.getPath() + "?user=" + credentials[0]
                    + "&password=" + encoded(credentials[1]) + "&connectTimeout=5000&serverTimezone=UTC";
            try (LockSession a = LockSession.open(url);
                 LockSession b = LockSession.open(mysql);
                 Lock held = a.tryLock(name).orElseThrow()) {
                assertTrue(held.isHeld());
                assertTrue(b.tryLock(name).isEmpty(), "the mysql:// session sees the jdbc one's lock");
            }
            ConnectException e = assertThrows(ConnectException.class, () -> LockSession.open(
                    scheme + uri.getHost() + ":" + uri.getPort() + uri.getPath(),
                    SessionOptions.defaults().user(credentials[0]).password(PASSWORD)));
            assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
        }
    }
}
