package example.spring;

import com.zaxxer.hikari.HikariDataSource;
import io.advlock.SessionOptions;
import io.advlock.spring.shedlock.AdvlockLockProvider;
import io.advlock.spring.tx.AdvlockTransactions;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.transaction.support.TransactionTemplate;

@Configuration
@EnableScheduling
@EnableSchedulerLock(defaultLockAtMostFor = "PT30M")
@ComponentScan
public class AppConfig {
    /** The one advlock bean @SchedulerLock needs: session locks on a connection of its own. */
    @Bean
    public AdvlockLockProvider lockProvider(Settings settings) {
        return new AdvlockLockProvider(settings.jdbcUrl(), SessionOptions.defaults().applicationName("spring-scheduled")
                .user(settings.user()).password(settings.password()));
    }

    /** The job's pool; the transaction manager, JdbcTemplate and AdvlockTransactions share it (field note 001). */
    @Bean
    public HikariDataSource dataSource(Settings settings) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(settings.jdbcUrl());
        pool.setUsername(settings.user());
        pool.setPassword(settings.password());
        pool.setMaximumPoolSize(2);
        return pool;
    }

    @Bean
    public JdbcTemplate jdbcTemplate(DataSource dataSource) {
        return new JdbcTemplate(dataSource);
    }

    @Bean
    public TransactionTemplate transactionTemplate(DataSource dataSource) {
        return new TransactionTemplate(new JdbcTransactionManager(dataSource));
    }

    @Bean
    public AdvlockTransactions advlockTransactions(DataSource dataSource) {
        return new AdvlockTransactions(dataSource);
    }

    /** Two threads: a long daily_sales must not hold up daily_summary (Spring's default is one). */
    @Bean
    public ThreadPoolTaskScheduler taskScheduler() {
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        scheduler.setPoolSize(2);
        scheduler.setThreadNamePrefix("job-");
        return scheduler;
    }
}
