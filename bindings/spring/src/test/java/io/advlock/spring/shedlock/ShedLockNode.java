package io.advlock.spring.shedlock;

import io.advlock.SessionOptions;
import io.advlock.spring.TestDatabase;
import java.time.Duration;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** One application node: the real @EnableSchedulerLock with an AdvlockLockProvider bean (its own session). */
@Configuration
@EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
public class ShedLockNode {
    @Bean
    public AdvlockLockProvider lockProvider() {
        // A short heartbeat finds a killed session soon; the default finds it too, later.
        return new AdvlockLockProvider(TestDatabase.url(),
                SessionOptions.defaults().applicationName("shedlock-test").heartbeatInterval(Duration.ofMillis(100)));
    }

    @Bean
    public ShedLockJobs jobs() {
        return new ShedLockJobs();
    }

    static AnnotationConfigApplicationContext start() {
        return new AnnotationConfigApplicationContext(ShedLockNode.class);
    }
}
