package example;

import io.advlock.Key;

/** The lock table of field note 000: (category, job id) pairs, kept in code. */
public enum BatchLock {
    DAILY_SALES(100, 1),
    MONTHLY_CLOSE(100, 2),
    CUSTOMER_SYNC(100, 3);

    private final Key key;

    BatchLock(int category, int id) {
        this.key = Key.pair(category, id);
    }

    public Key key() {
        return key;
    }
}
