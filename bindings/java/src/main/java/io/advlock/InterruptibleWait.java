package io.advlock;

import io.advlock.internal.NativeCancelToken;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.spi.AbstractInterruptibleChannel;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Makes one native wait end when its thread is interrupted. Java has no public hook on
 * {@link Thread#interrupt()} but the one NIO uses for blocking I/O: between {@code begin()} and
 * {@code end()} of an {@link AbstractInterruptibleChannel}, an interrupt closes the channel, here
 * cancelling the wait's own cancel token (only this thread's wait; others on the session go on).
 *
 * <p>The wait runs on the calling thread, not a helper thread, because the core decides by thread
 * who owns what: a reentrant handle belongs to the thread that took it, and a thread waiting for a
 * handle it holds itself gets a {@link DeadlockException}. A helper thread would be the wrong owner.
 */
final class InterruptibleWait extends AbstractInterruptibleChannel {
    private final NativeCancelToken token;

    private InterruptibleWait(NativeCancelToken token) {
        this.token = token;
    }

    /** Runs on the interrupting thread; the token may be cancelled from any thread. */
    @Override
    protected void implCloseChannel() {
        token.cancel();
    }

    /**
     * wait(token) on this thread, ended by an interrupt. Interrupted (before or during the wait): a
     * lock granted in the race is given to undo, and a {@link CanceledException} with an
     * {@link InterruptedException} cause is thrown, the interrupt flag left set.
     */
    static <T> T run(String what, Function<NativeCancelToken, T> wait, Consumer<T> undo) {
        NativeCancelToken token = new NativeCancelToken();
        InterruptibleWait channel = new InterruptibleWait(token);
        T result = null;
        RuntimeException failure = null;
        boolean interrupted = false;
        try {
            channel.begin();  // already interrupted: cancels the token now (the core's cancel is sticky)
            try {
                result = wait.apply(token);
            } catch (RuntimeException e) {
                failure = e;
            } finally {
                try {
                    channel.end(true);
                } catch (ClosedByInterruptException e) {
                    interrupted = true;
                } catch (AsynchronousCloseException e) {
                    throw new IllegalStateException("advlock: nothing but an interrupt closes a wait", e);
                }
            }
        } finally {
            token.delete();  // after end(): no interrupt can reach the token any more
        }
        if (interrupted && (failure == null || failure instanceof CanceledException)) {
            if (result != null) {
                try {
                    undo.accept(result);
                } catch (RuntimeException e) {
                    failure = e;
                }
            }
            Thread.currentThread().interrupt();  // set already by interrupt(); said here because it is the contract
            CanceledException e = new CanceledException("advlock: " + what + ": the waiting thread was "
                    + "interrupted (its interrupt flag stays set)", "");
            e.initCause(new InterruptedException());
            if (failure != null && !(failure instanceof CanceledException)) e.addSuppressed(failure);
            throw e;
        }
        if (failure != null) throw failure;
        return result;
    }
}
