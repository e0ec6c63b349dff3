package dev.idgen.spring.boot;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Takes the application out of the readiness group while a generator cannot make IDs (the lease is
 * fenced or claiming again, or a clock refusal is within its window), and puts it back when it can:
 * it publishes {@link ReadinessState#REFUSING_TRAFFIC} and later {@link ReadinessState#ACCEPTING_TRAFFIC}
 * as {@link AvailabilityChangeEvent}s. Liveness is never touched: the process is alive and recovers
 * by itself, a restart would not help.
 *
 * <p><b>How a change is noticed.</b> A daemon thread runs {@link #check()} every
 * {@code idgen.readiness.check-every} (250 ms by default) while the context runs. A poll on health
 * reads would not do: the readiness probe reads the readiness state, which only an event changes,
 * and nothing reads the {@code idgen} indicator unless it is in the group. A check costs one
 * {@code isHeld()} and two {@code clockStats()} reads; the ID path never sees it.
 *
 * <p><b>Whose state it changes.</b> It refuses only from ACCEPTING_TRAFFIC (so not before the
 * application is ready: Spring Boot publishes ACCEPTING_TRAFFIC then, and the next check refuses if
 * it must), and it accepts again only while the last readiness event is its own refusal: a refusal
 * published by the application or by the shutdown is never undone here.
 */
public final class IdgenReadiness implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(IdgenReadiness.class);

    private final GeneratorCheck check;
    private final ApplicationAvailability availability;
    private final ApplicationEventPublisher publisher;
    private final Duration checkEvery;
    private ScheduledExecutorService scheduler; // guarded by this

    IdgenReadiness(GeneratorCheck check, ApplicationAvailability availability, ApplicationEventPublisher publisher,
            Duration checkEvery) {
        if (checkEvery == null || checkEvery.compareTo(Duration.ofMillis(10)) < 0
                || checkEvery.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IdgenConfigurationException("idgen.readiness.check-every=" + checkEvery
                    + " is outside 10ms..10s");
        }
        this.check = Objects.requireNonNull(check, "check");
        this.availability = Objects.requireNonNull(availability, "availability");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        this.checkEvery = checkEvery;
    }

    /**
     * Compares what the generators can do now with the readiness state and publishes a change if
     * one is due. Run by the scheduler; callable from anywhere (tests drive it directly).
     *
     * @return the reason the generators cannot make IDs, or {@code null} when they can
     */
    public synchronized String check() {
        String whyNot = check.whyNot();
        ReadinessState state = availability.getReadinessState();
        if (whyNot != null && state == ReadinessState.ACCEPTING_TRAFFIC) {
            LOG.warn("idgen cannot make IDs, so the application refuses traffic (readiness REFUSING_TRAFFIC;"
                    + " liveness unchanged) until it can: {}", whyNot);
            AvailabilityChangeEvent.publish(publisher, this, ReadinessState.REFUSING_TRAFFIC);
        } else if (whyNot == null && state == ReadinessState.REFUSING_TRAFFIC && refusedByThis()) {
            LOG.info("idgen makes IDs again: the application accepts traffic (readiness ACCEPTING_TRAFFIC)");
            AvailabilityChangeEvent.publish(publisher, this, ReadinessState.ACCEPTING_TRAFFIC);
        }
        return whyNot;
    }

    private boolean refusedByThis() {
        AvailabilityChangeEvent<ReadinessState> last = availability.getLastChangeEvent(ReadinessState.class);
        return last != null && last.getSource() == this;
    }

    private void checkQuietly() {
        try {
            check();
        } catch (RuntimeException e) { // keep the schedule: one failed read must not end the checks
            LOG.warn("idgen readiness check failed", e);
        }
    }

    @Override
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "idgen-readiness");
            t.setDaemon(true);
            return t;
        });
        long period = checkEvery.toMillis();
        scheduler.scheduleWithFixedDelay(this::checkQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        ScheduledExecutorService s;
        synchronized (this) {
            s = scheduler;
            scheduler = null;
        }
        if (s != null) {
            s.shutdownNow();
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public String toString() {
        return "idgen readiness (every " + checkEvery.toMillis() + " ms)";
    }
}
