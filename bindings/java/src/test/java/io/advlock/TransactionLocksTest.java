package io.advlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class TransactionLocksTest {
    private static final String URL = TestPostgres.url();
    private static final Key KEY = Key.pair(500, 1);

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void lockEndsWithTheTransaction(boolean commit) throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            conn.setAutoCommit(false);
            assertTrue(TransactionLocks.tryLock(conn, KEY));
            assertEquals(1, TestPostgres.holders(KEY).size());
            assertTrue(session.tryLock(KEY).isEmpty());
            if (commit) conn.commit(); else conn.rollback();
            assertEquals(List.of(), TestPostgres.holders(KEY));
            assertTrue(session.tryLock(KEY).isPresent());
        }
    }

    @Test
    void heldElsewhereIsFalse() throws Exception {
        try (Connection conn = TestPostgres.jdbc(); LockSession session = LockSession.open(URL)) {
            session.tryLock(KEY).orElseThrow();
            conn.setAutoCommit(false);
            assertFalse(TransactionLocks.tryLock(conn, KEY));
            assertFalse(TransactionLocks.tryLock(conn, KEY, Mode.SHARED));
            conn.rollback();
        }
    }

    @Test
    void autoCommitIsMisuse() throws Exception {
        try (Connection conn = TestPostgres.jdbc()) {
            MisuseException e = assertThrows(MisuseException.class, () -> TransactionLocks.tryLock(conn, KEY));
            assertTrue(e.getMessage().contains("auto-commit"), e.getMessage());
        }
    }
}
