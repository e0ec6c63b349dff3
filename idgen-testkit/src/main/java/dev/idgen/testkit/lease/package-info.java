/**
 * The scenarios every machine-id lease backend must pass (churn, hand-over above the mark, fencing
 * on loss), as one check a backend's test calls with a {@link dev.idgen.testkit.lease.LeaseBackend}
 * for its coordinator: {@link dev.idgen.testkit.lease.LeaseScenarios#check}; and the fleet check
 * (claimers by the hundred or thousand, the space's limit, the renewal load on the server, holders
 * dying at once), {@link dev.idgen.testkit.lease.LeaseFleet#run}, through a
 * {@link dev.idgen.testkit.lease.LeaseFleet.Backend}.
 */
package dev.idgen.testkit.lease;
