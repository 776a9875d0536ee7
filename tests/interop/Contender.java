// Interop contender in Java (tests/interop/interop.py runs it with
// `java -cp advlock.jar Contender.java ...`); the same protocol as contender.py:
//   Contender keys SPEC...
//   Contender contend URL SPEC LOG ROUNDS HOLD_MS
import io.advlock.Key;
import io.advlock.Lock;
import io.advlock.LockSession;
import java.io.FileWriter;
import java.io.IOException;
import java.time.Duration;

public class Contender {
    static Key keyOf(String spec) {
        String[] parts = spec.split(":", 2);
        if (parts[0].equals("name")) return Key.fromName(parts[1]);
        String[] pair = parts[1].split(":");
        return Key.pair(Integer.parseInt(pair[0]), Integer.parseInt(pair[1]));
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args[0].equals("keys")) {
            for (int i = 1; i < args.length; i++) System.out.println(args[i] + "\t" + keyOf(args[i]));
            return;
        }
        String url = args[1], spec = args[2], log = args[3];
        int rounds = Integer.parseInt(args[4]), holdMs = Integer.parseInt(args[5]);
        long pid = ProcessHandle.current().pid();
        try (LockSession session = LockSession.open(url); FileWriter out = new FileWriter(log, true)) {
            for (int i = 0; i < rounds; i++) {
                try (Lock held = session.lock(keyOf(spec), Duration.ofDays(1))) {
                    // System.nanoTime is CLOCK_MONOTONIC on Linux, as the others use.
                    out.write("E " + System.nanoTime() + " java " + pid + "\n");
                    out.flush();
                    Thread.sleep(holdMs);
                    out.write("X " + System.nanoTime() + " java " + pid + "\n");
                    out.flush();
                }
            }
        }
    }
}
