package dev.idgen.index.engine;

import dev.idgen.index.model.IndexStats;
import java.util.Map;

/**
 * One key kind on one engine: the workload, what the engine's instruments said, how fast it went,
 * and what the model says for the same keys in the same order.
 *
 * @param database the engine
 * @param version the engine and its version, as it says
 * @param settings the engine settings that shape the figures
 * @param key the key kind
 * @param workload the workload
 * @param seconds wall time of the inserts, commits included
 * @param latencyP50Micros median INSERT statement latency, microseconds
 * @param latencyP99Micros 99th percentile INSERT statement latency, microseconds
 * @param real the engine's figures
 * @param counters differences of the global counters over the run
 * @param model the model fed the same keys in the order the engine took them
 * @param modelLeafFill the model's leaf fill in the engine's own measure
 * @param arrival the keys in the order the engine took them, and their writers
 * @param load the machine's one-minute load average as the inserts began and as they ended (-1
 *     where the system does not say): other work on the machine changes how writers interleave
 */
public record RealResult(Database database, String version, Map<String, Object> settings, RealKey key, Workload workload,
        double seconds, double latencyP50Micros, double latencyP99Micros, Figures real, Map<String, Long> counters,
        IndexStats model, double modelLeafFill, Arrival arrival, double[] load) {

    /** Copies the load figures. */
    public RealResult {
        if (load.length != 2) {
            throw new IllegalArgumentException("load takes 2 figures, at the start and at the end; got " + load.length);
        }
        load = load.clone();
    }

    /** @return the load average as the inserts began and as they ended */
    @Override
    public double[] load() {
        return load.clone();
    }

    /** @return the one-minute load average as the inserts began */
    public double loadAtStart() {
        return load[0];
    }

    /** @return the one-minute load average as the inserts ended */
    public double loadAtEnd() {
        return load[1];
    }

    /** @return rows per second over the run */
    public double rowsPerSecond() {
        return workload.rows() / seconds;
    }

    /** @return model leaf pages over real leaf pages, minus one (0.05 is 5 % too many) */
    public double leafPagesError() {
        return (double) model.leafPages() / real.leafPages() - 1;
    }

    /** @return model leaf fill over real leaf fill, minus one */
    public double leafFillError() {
        return modelLeafFill / real.leafFill() - 1;
    }
}
