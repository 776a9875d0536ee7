package io.advlock;

import java.util.AbstractList;
import java.util.List;

/**
 * What {@link LockSession#holders} answers: the holders and waiters the server
 * showed (an unmodifiable list), and a note of what it could not show.
 */
public final class Holders extends AbstractList<Holder> {
    private final List<Holder> rows;
    private final String note;

    Holders(List<Holder> rows, String note) {
        this.rows = List.copyOf(rows);
        this.note = note;
    }

    @Override
    public Holder get(int index) { return rows.get(index); }

    @Override
    public int size() { return rows.size(); }

    /**
     * What the server could not show, in words (MariaDB lists no waiters;
     * without metadata_lock_info or performance_schema only the registry's
     * locks and the one asked for are looked up); "" when it showed everything.
     */
    public String note() { return note; }
}
