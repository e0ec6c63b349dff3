package dev.idgen.spring.boot;

import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import io.etcd.jetcd.Client;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/** {@code idgen.machine-id.source=etcd}; loaded only when idgen-etcd and jetcd are present. */
final class EtcdLeases {

    static final String ENDPOINTS = "idgen.machine-id.etcd.endpoints";

    private EtcdLeases() {
    }

    static Client client(IdgenProperties.Etcd p) {
        try {
            return Client.builder().endpoints(p.getEndpoints().toArray(String[]::new)).build();
        } catch (IllegalArgumentException e) {
            throw new IdgenConfigurationException(ENDPOINTS + "=" + String.join(",", p.getEndpoints())
                    + " are not etcd client URLs; allowed: http://host:2379 or https://host:2379, comma-separated: "
                    + e.getMessage(), e);
        }
    }

    static MachineIdLease acquire(IdgenProperties.Etcd p, SnowflakeLayout layout, Client client,
            boolean reclaimAnyId) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.source=etcd needs " + ENDPOINTS
                    + " (http://host:2379,...) or a jetcd Client bean");
        }
        try {
            EtcdMachineIdLease.Builder b = EtcdMachineIdLease.builder(client).namespace(p.getNamespace())
                    .reclaimAnyId(reclaimAnyId)
                    .maxMachineId(layout.maxMachineId());
            p.timings(b::ttl, b::renewEvery);
            return b.acquire(); // closed (released) by Spring at shutdown, before the client it uses
        } catch (MachineIdLeaseException | IllegalArgumentException e) {
            throw new IdgenConfigurationException("idgen.machine-id.source=etcd: no machine id could be claimed"
                    + " under " + p.getNamespace() + ": " + e.getMessage(), e);
        }
    }

    /** Claims exactly {@code id} (from fixed, env or pod-ordinal); renewed and fenced, never moved. */
    static MachineIdLease acquireExact(IdgenProperties.Etcd p, SnowflakeLayout layout, Client client, long id) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.check-with=etcd needs " + ENDPOINTS
                    + " (http://host:2379,...) or a jetcd Client bean");
        }
        EtcdMachineIdLease.Builder b = EtcdMachineIdLease.builder(client).namespace(p.getNamespace())
                .maxMachineId(layout.maxMachineId()).machineId(id);
        p.timings(b::ttl, b::renewEvery);
        return b.acquire();
    }

    /** Whether {@code idgen.machine-id.etcd.endpoints} holds at least one URL, in either list form. */
    static final class OnEndpoints extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean any = Binder.get(context.getEnvironment()).bind(ENDPOINTS, Bindable.listOf(String.class))
                    .map(list -> !list.isEmpty()).orElse(false);
            return any ? ConditionOutcome.match(ENDPOINTS + " is set")
                    : ConditionOutcome.noMatch(ENDPOINTS + " is not set");
        }
    }
}
