/**
 * The scenarios every machine-id lease backend must pass (churn, hand-over above the mark, fencing
 * on loss), as one check a backend's test calls with a {@link dev.idgen.testkit.lease.LeaseBackend}
 * for its coordinator: {@link dev.idgen.testkit.lease.LeaseScenarios#check}.
 */
package dev.idgen.testkit.lease;
