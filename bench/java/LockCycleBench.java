// Try + release cycle from Java, with its two baselines measured in the same
// run against the same server:
//   - advlock's Java binding: session.tryLock(key) + lock.release()
//   - the C ABI underneath (advlock_bench's BM_AdvlockCapiTryRelease, a C++ program)
//   - pgjdbc running the same two statements as prepared statements on a
//     dedicated autocommit connection (server-side prepared after 5 runs)
// Rounds run the three in a random order; each measures for about 2 s.
// Prints JSON: {"java": [µs per cycle...], "capi": [...], "pgjdbc": [...]}.
//
//   java -cp advlock.jar:postgresql.jar bench/java/LockCycleBench.java URL ADVLOCK_BENCH ROUNDS
import io.advlock.Key;
import io.advlock.LockSession;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class LockCycleBench {
    interface Cycle {
        void run() throws Exception;
    }

    static double timedCycles(Cycle cycle, double seconds) throws Exception {
        for (int i = 0; i < 2000; i++) cycle.run();  // warm up the JIT and the server's plans
        long count = 0, start = System.nanoTime();
        while (true) {
            for (int i = 0; i < 100; i++) cycle.run();
            count += 100;
            double elapsed = (System.nanoTime() - start) / 1e9;
            if (elapsed >= seconds) return elapsed / count * 1e6;
        }
    }

    static double advlockJava(String url) throws Exception {
        Key key = Key.bigint(424261);
        try (LockSession session = LockSession.open(url)) {
            return timedCycles(() -> session.tryLock(key).orElseThrow().release(), 2.0);
        }
    }

    static double pgjdbc(String url) throws Exception {
        URI uri = URI.create(url);
        String[] credentials = uri.getUserInfo().split(":", 2);
        Properties properties = new Properties();
        properties.setProperty("user", credentials[0]);
        properties.setProperty("password", credentials[1]);
        try (Connection c = DriverManager.getConnection(
                     "jdbc:postgresql://" + uri.getHost() + ":" + uri.getPort() + uri.getPath(), properties);
             PreparedStatement tryLock = c.prepareStatement("SELECT pg_try_advisory_lock(?)");
             PreparedStatement unlock = c.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            tryLock.setLong(1, 424262);
            unlock.setLong(1, 424262);
            return timedCycles(() -> {
                boolean got, released;
                try (ResultSet r = tryLock.executeQuery()) {
                    r.next();
                    got = r.getBoolean(1);
                }
                try (ResultSet r = unlock.executeQuery()) {
                    r.next();
                    released = r.getBoolean(1);
                }
                if (!got || !released) throw new IllegalStateException("pgjdbc cycle failed");
            }, 2.0);
        }
    }

    static double cAbi(String bench, String url) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(bench, "--benchmark_filter=^BM_AdvlockCapiTryRelease",
                                                    "--benchmark_format=json");
        builder.environment().put("ADVLOCK_BENCH_PG_URL", url);
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        process.getInputStream().transferTo(out);
        if (process.waitFor() != 0) throw new IllegalStateException("advlock_bench failed");
        Matcher m = Pattern.compile("\"run_type\": \"iteration\"[\\s\\S]*?\"real_time\": ([0-9.e+-]+)").matcher(out.toString());
        if (!m.find()) throw new IllegalStateException("no real_time in advlock_bench's output");
        return Double.parseDouble(m.group(1));
    }

    public static void main(String[] args) throws Exception {
        String url = args[0], bench = args[1];
        int rounds = Integer.parseInt(args[2]);
        Map<String, List<Double>> results = new LinkedHashMap<>();
        for (String name : List.of("java", "capi", "pgjdbc")) results.put(name, new ArrayList<>());
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(results.keySet());
            Collections.shuffle(order);
            for (String name : order) {
                double us = name.equals("java") ? advlockJava(url) : name.equals("capi") ? cAbi(bench, url) : pgjdbc(url);
                results.get(name).add(us);
            }
        }
        StringBuilder json = new StringBuilder("{\"java_version\": \"" + System.getProperty("java.version") + "\"");
        for (Map.Entry<String, List<Double>> e : results.entrySet()) json.append(", \"").append(e.getKey()).append("\": ").append(e.getValue());
        System.out.println(json.append("}"));
    }
}
