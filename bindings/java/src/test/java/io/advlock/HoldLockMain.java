package io.advlock;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/** A second JVM for contention tests: takes KEY, prints "held PID" or "busy PID", holds until stdin ends. */
public final class HoldLockMain {
    public static void main(String[] args) throws Exception {
        try (LockSession session = LockSession.open(args[0], SessionOptions.defaults().applicationName("second-jvm"))) {
            var lock = session.tryLock(Key.parse(args[1]));
            System.out.println((lock.isPresent() ? "held " : "busy ") + session.serverId());
            System.out.flush();
            new BufferedReader(new InputStreamReader(System.in)).readLine();
        }
    }
}
