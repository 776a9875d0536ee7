package io.advlock.spring.shedlock;

import io.advlock.Lock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Future;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One ShedLock lock over one advlock {@link Lock}. ShedLock's base class refuses a second unlock
 * and any use after extend; this one maps the times (see {@link AdvlockLockProvider}).
 */
final class AdvlockSimpleLock extends AbstractSimpleLock {
    private final AdvlockLockProvider provider;
    private final Lock lock;
    private final Future<?> overrunWarning;

    AdvlockSimpleLock(AdvlockLockProvider provider, LockConfiguration configuration, Lock lock) {
        super(configuration);
        this.provider = provider;
        this.lock = lock;
        overrunWarning = provider.warnAfter(Duration.between(ClockProvider.now(), configuration.getLockAtMostUntil()),
                configuration.getName(), configuration.getLockAtMostFor(), lock);
    }

    @Override
    protected void doUnlock() {
        overrunWarning.cancel(false);
        provider.jobEnded(lock);
        provider.release(lock, Duration.between(ClockProvider.now(), lockConfiguration.getLockAtLeastUntil()));
    }

    /** The same server lock under the new times; empty once it is lost (nothing left to extend). */
    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
        if (!lock.isHeld()) return Optional.empty();
        overrunWarning.cancel(false);
        return Optional.of(new AdvlockSimpleLock(provider, newConfiguration, lock));
    }
}
