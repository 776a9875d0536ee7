package example;

import io.advlock.TransactionLocks;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Field note 001's pattern: the lock joins the job's own transaction, so the
 * work and the lock commit (or roll back) together and cannot part ways, even
 * if this process pauses or its connection dies half-way.
 *
 *   java -cp daily-sales.jar example.MonthlyClose JDBC_URL USER PASSWORD
 */
public final class MonthlyClose {
    public static void main(String[] args) throws SQLException {
        TransactionTemplate transaction = new TransactionTemplate(args[0], args[1], args[2]);
        String outcome = transaction.execute(connection -> {
            if (!TransactionLocks.tryLock(connection, BatchLock.MONTHLY_CLOSE.key())) {
                return "monthly_close: another run holds the lock, skipping";
            }
            connection.createStatement().execute(
                    "CREATE TABLE IF NOT EXISTS monthly_close_runs (closed_at timestamptz NOT NULL DEFAULT now())");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO monthly_close_runs DEFAULT VALUES")) {
                insert.executeUpdate();  // commits together with the lock's release
            }
            return "monthly_close: closed the month";
        });
        System.out.println(outcome);
    }
}
