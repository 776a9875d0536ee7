package io.advlock.spring;

import io.advlock.Key;
import io.advlock.Lock;
import io.advlock.LockSession;
import java.util.Optional;

/** Whether another node could take a key now: a try-lock on an advlock session of its own, given back at once. */
public final class KeyFree {
    private KeyFree() {}

    public static boolean isFree(Key key) {
        try (LockSession other = LockSession.open(TestDatabase.url())) {
            Optional<Lock> lock = other.tryLock(key);
            lock.ifPresent(Lock::release);
            return lock.isPresent();
        }
    }
}
