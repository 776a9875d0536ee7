package example.spring;

import io.advlock.Key;
import io.advlock.spring.tx.AdvlockTransactions;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Field note 001's DailySummaryJob as one call: pg_try_advisory_xact_lock(7001) and the INSERT
 * in one transaction, on one connection; skipped while another session holds 7001.
 */
@Component
public class DailySummaryJob {
    private static final Key LOCK = Key.bigint(7001);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;
    private final AdvlockTransactions locks;

    public DailySummaryJob(JdbcTemplate jdbc, TransactionTemplate transactions, AdvlockTransactions locks) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.locks = locks;
        jdbc.execute("CREATE TABLE IF NOT EXISTS batch_execution_log (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                + "job_name text NOT NULL, executed_at timestamptz NOT NULL)");
    }

    @Scheduled(initialDelay = 0, fixedDelay = 60_000)
    public void run() {
        boolean ran = locks.runIfFree(transactions, LOCK, status -> jdbc.update(
                "INSERT INTO batch_execution_log (job_name, executed_at) VALUES (?, CURRENT_TIMESTAMP)", "daily-summary"));
        System.out.println(ran ? "daily_summary: logged this run" : "daily_summary: another run holds the lock, skipping");
    }
}
