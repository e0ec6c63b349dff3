/**
 * Predicting an engine's primary-key (or {@code public_id} secondary) index from a workload alone,
 * before any engine runs: {@link dev.idgen.index.predict.WorkloadPredictor} simulates how the
 * writers interleave (seeded) and feeds the engine's calibrated model; see docs/index-real.md,
 * "Prediction from a workload", for what it was fitted on, what was held out and its error.
 */
package dev.idgen.index.predict;
