package example.spring;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * Starts the scheduler and runs until stopped (Ctrl-C, SIGTERM: the context closes, and its
 * lock provider releases its locks at once; a SIGKILL's locks go when the server sees the
 * connection close).
 *
 *   DB_PASSWORD=... java -jar spring-scheduled.jar JDBC_URL USER [SECONDS_OF_WORK]
 */
public final class DailySalesApp {
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: spring-scheduled.sh JDBC_URL USER [SECONDS_OF_WORK]  (password in DB_PASSWORD)");
            System.exit(2);
        }
        Settings settings = new Settings(args[0], args[1], System.getenv().getOrDefault("DB_PASSWORD", ""),
                args.length > 2 ? Long.parseLong(args[2]) : 5);
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.registerBean(Settings.class, () -> settings);
        context.register(AppConfig.class);
        context.registerShutdownHook();
        context.refresh();
    }
}
