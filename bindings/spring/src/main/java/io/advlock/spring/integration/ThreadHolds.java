package io.advlock.spring.integration;

import io.advlock.Key;
import io.advlock.Lock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * The advlock Locks each thread holds per key, one per lock() it has not unlocked yet: what makes
 * unlock() release the thread's own, and a foreign thread's unlock() an error. Per registry.
 */
final class ThreadHolds {
    private final ThreadLocal<Map<Key, Deque<Lock>>> byThread = ThreadLocal.withInitial(HashMap::new);

    /** The newest Lock this thread holds on key, or null. */
    Lock newest(Key key) {
        Deque<Lock> locks = byThread.get().get(key);
        return locks == null ? null : locks.peekLast();
    }

    void add(Key key, Lock lock) {
        byThread.get().computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(lock);
    }

    /** Take this thread's newest Lock on key off the list; IllegalMonitorStateException when it holds none. */
    Lock removeNewest(Key key) {
        Map<Key, Deque<Lock>> mine = byThread.get();
        Deque<Lock> locks = mine.get(key);
        if (locks == null || locks.isEmpty()) {
            throw new IllegalMonitorStateException("advlock: lock " + key + " is not held by this thread");
        }
        Lock lock = locks.removeLast();
        if (locks.isEmpty()) mine.remove(key);
        if (mine.isEmpty()) byThread.remove();
        return lock;
    }
}
