package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MySQL/MariaDB: the same binding, only the URL differs. Runs against the real
 * server scripts/with-mariadb.sh starts (ADVLOCK_TEST_MYSQL_URL); skipped, with
 * the reason, when that variable is unset. The server is looked at and
 * disturbed with the mariadb command-line client, as root on the server's Unix
 * socket (ADVLOCK_TEST_MYSQL_STATE/socket), else with the URL's credentials.
 */
class MysqlTest {
    private static final String UNIQUE = "java" + ProcessHandle.current().pid();
    private static String url;

    @BeforeAll
    static void needsMysql() {
        url = System.getenv("ADVLOCK_TEST_MYSQL_URL");
        Assumptions.assumeTrue(url != null && !url.isEmpty(),
                "ADVLOCK_TEST_MYSQL_URL is not set (scripts/test-java.sh runs these under scripts/with-mariadb.sh)");
    }

    @Test
    void aNameIsHeldUnderThatExactName() throws Exception {
        String name = "daily_sales_" + UNIQUE;
        try (LockSession session = LockSession.open(url)) {
            Lock lock = session.tryLock(name).orElseThrow();
            assertTrue(lock.isHeld());
            assertEquals(String.valueOf(session.serverId()), holderOf(name));
            lock.release();
            assertEquals("NULL", holderOf(name));
            // Every way of naming a lock reaches the server as the name.
            for (Key key : List.of(Key.fromName(name), Key.parse("name:" + name))) {
                try (Lock held = session.tryLock(key).orElseThrow()) {
                    assertEquals(String.valueOf(session.serverId()), holderOf(name), key.toString());
                }
            }
        }
        String entry = "report_" + UNIQUE;
        try (Registry registry = Registry.parse("[locks." + entry + "]\ndescription = \"no key of its own\"\n", "t.toml");
             LockSession session = LockSession.open(url, SessionOptions.defaults().registry(registry));
             Lock held = session.tryLock(entry).orElseThrow()) {
            assertEquals(String.valueOf(session.serverId()), holderOf(entry));
        }
    }

    @Test
    void aSecondSessionCannotTakeItUntilReleased() throws Exception {
        String name = "exclusive_" + UNIQUE;
        try (LockSession first = LockSession.open(url); LockSession second = LockSession.open(url)) {
            Lock lock = first.tryLock(name).orElseThrow();
            assertTrue(second.tryLock(name).isEmpty());
            assertThrows(NotAcquiredException.class, () -> second.lock(name, Duration.ofMillis(200)));
            lock.release();
            try (Lock again = second.tryLock(name).orElseThrow()) {
                assertEquals(String.valueOf(second.serverId()), holderOf(name));
            }
        }
    }

    @Test
    void holdersShowTheHolderAndSayWhatTheServerCannotShow() {
        String name = "listed_" + UNIQUE;
        try (LockSession holder = LockSession.open(url); LockSession asker = LockSession.open(url);
             Lock held = holder.tryLock(name).orElseThrow()) {
            Holders holders = asker.holders(Key.fromName(name));
            assertEquals(1, holders.size());
            assertEquals(holder.serverId(), holders.get(0).serverId());
            assertEquals(name, holders.get(0).key().name().orElseThrow());
            assertTrue(holders.get(0).isGranted());
            assertFalse(holders.get(0).isSelf());
            // MariaDB's metadata_lock_info lists holders, never waiters: the note says so.
            assertTrue(holders.note().contains("waiting"), holders.note());
            // A holder's key names the same lock: taking it from another session fails.
            assertTrue(asker.tryLock(holders.get(0).key()).isEmpty());
        }
    }

    @Test
    void keysAreHeldAsAdvlockKeyText() throws Exception {
        int k2 = (int) ProcessHandle.current().pid();
        try (LockSession session = LockSession.open(url)) {
            try (Lock held = session.tryLock(Key.pair(100, k2)).orElseThrow()) {
                assertEquals(String.valueOf(session.serverId()), holderOf("advlock:100:" + k2));
            }
            try (Lock held = session.tryLock(Key.bigint(-k2)).orElseThrow()) {
                assertEquals(String.valueOf(session.serverId()), holderOf("advlock:-" + k2));
            }
        }
    }

    @Test
    void namesHoldAtMost64Characters() throws Exception {
        String prefix = "long_" + UNIQUE + "_";
        try (LockSession session = LockSession.open(url)) {
            BadKeyException e = assertThrows(BadKeyException.class,
                    () -> session.tryLock(prefix + "x".repeat(65 - prefix.length())));
            assertEquals("ADVLOCK_EKEY", Statuses.nameOf(e.status()));
            assertTrue(e.getMessage().contains("at most 64"), e.getMessage());
            String longest = prefix + "x".repeat(64 - prefix.length());
            try (Lock held = session.tryLock(longest).orElseThrow()) {
                assertEquals(String.valueOf(session.serverId()), holderOf(longest));
            }
        }
    }

    @Test
    void scopePrefixesNames() throws Exception {
        String name = "daily_sales_" + UNIQUE;
        try (LockSession session = LockSession.open(url + (url.contains("?") ? "&" : "?") + "scope=billing");
             Lock held = session.tryLock(name).orElseThrow()) {
            assertEquals(String.valueOf(session.serverId()), holderOf("billing:" + name));
        }
    }

    @Test
    void sharedModeIsUnsupported() {
        try (LockSession session = LockSession.open(url)) {
            UnsupportedException e = assertThrows(UnsupportedException.class,
                    () -> session.tryLock(Key.fromName("shared_" + UNIQUE), Mode.SHARED));
            assertEquals("ADVLOCK_EUNSUPPORTED", Statuses.nameOf(e.status()));
        }
    }

    @Test
    void killConnectionMeansLockLostAndListener() throws Exception {
        String name = "doomed_" + UNIQUE;
        List<String> reasons = new CopyOnWriteArrayList<>();
        LockSession session = LockSession.open(url);
        session.addLostListener((s, why) -> reasons.add(why));
        Lock lock = session.tryLock(name).orElseThrow();
        assertFalse(session.isLost());
        admin("KILL CONNECTION " + session.serverId());
        waitUntil(() -> !reasons.isEmpty(), "the lost listener");
        assertEquals(1, reasons.size(), reasons.toString());
        assertTrue(session.isLost());
        assertFalse(lock.isHeld());
        assertThrows(LockLostException.class, lock::ensureHeld);
        assertThrows(LockLostException.class, session::check);
        LockLostException e = assertThrows(LockLostException.class, lock::release);
        assertEquals("ADVLOCK_ELOST", Statuses.nameOf(e.status()));
        session.close();
        assertEquals(1, reasons.size());
        waitUntil(() -> "NULL".equals(holderOfQuietly(name)), "the server to free the lock");
    }

    @Test
    void interruptEndsAWaitAndLeavesNoLock() throws Exception {
        String name = "interrupted_" + UNIQUE;
        try (LockSession holder = LockSession.open(url); LockSession waiter = LockSession.open(url)) {
            Lock held = holder.tryLock(name).orElseThrow();
            long pid = waiter.serverId();
            CompletableFuture<RuntimeException> thrown = new CompletableFuture<>();
            CompletableFuture<Boolean> flag = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try (Lock lock = waiter.lock(name, null)) {
                    thrown.complete(null);
                } catch (RuntimeException e) {
                    thrown.complete(e);
                }
                flag.complete(Thread.currentThread().isInterrupted());
            });
            thread.start();
            waitUntil(() -> "1".equals(adminQuietly("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = "
                    + pid + " AND STATE = 'User lock'")), "the waiter to wait in GET_LOCK");
            thread.interrupt();
            CanceledException e = assertInstanceOf(CanceledException.class, thrown.get(60, TimeUnit.SECONDS));
            assertInstanceOf(InterruptedException.class, e.getCause());
            assertTrue(flag.get(60, TimeUnit.SECONDS), "the interrupt flag stays set");
            held.release();
            assertEquals("NULL", holderOf(name), "the interrupted wait left no lock behind");
            waiter.tryLock(name).orElseThrow().release();
        }
    }

    // ---- the admin connection: the mariadb command-line client ------------------------------------

    private static List<String> adminCommand() throws IOException {
        List<String> command = new ArrayList<>(List.of("mariadb", "--no-defaults"));
        String state = System.getenv("ADVLOCK_TEST_MYSQL_STATE");
        if (state != null && !state.isEmpty()) {
            command.addAll(List.of("-uroot", "-S", Files.readString(Paths.get(state, "socket")).trim()));
            return command;
        }
        java.net.URI uri = java.net.URI.create(url);
        String[] credentials = uri.getUserInfo().split(":", 2);
        command.addAll(List.of("--protocol=TCP", "-h", uri.getHost(), "-P",
                               String.valueOf(uri.getPort() < 0 ? 3306 : uri.getPort()), "-u", credentials[0]));
        if (credentials.length > 1) command.add("-p" + credentials[1]);
        return command;
    }

    /** One statement; its single value as text. */
    private static String admin(String sql) throws IOException, InterruptedException {
        List<String> command = adminCommand();
        command.addAll(List.of("-Nse", sql));
        Path errors = Files.createTempFile("advlock-mysql-admin.", ".err");
        try {
            Process process = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.waitFor() != 0) fail("mariadb " + sql + ": " + Files.readString(errors));
            return out;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /** IS_USED_LOCK(name): the connection id holding it, or "NULL". */
    private static String holderOf(String name) throws IOException, InterruptedException {
        return admin("SELECT IS_USED_LOCK('" + name.replace("'", "''") + "')");
    }

    private static String adminQuietly(String sql) {
        try {
            return admin(sql);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String holderOfQuietly(String name) {
        try {
            return holderOf(name);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Polls; fails (not hangs) if it never holds. Not a timing assertion: the limit only ends a hang. */
    private static void waitUntil(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("gave up waiting for " + what);
            Thread.sleep(10);
        }
    }
}
