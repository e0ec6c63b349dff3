package dev.idgen.spring.boot;

import dev.idgen.lease.etcd.EtcdMachineIdLease;
import dev.idgen.machine.MachineIdLease;
import dev.idgen.machine.MachineIdLeaseException;
import dev.idgen.snowflake.SnowflakeLayout;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.GetOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

    /**
     * Fails naming where the client's address came from unless etcd answers a read of the namespace
     * within the lease's TTL. jetcd connects on its first call and retries an unreachable server
     * inside it, so without this the lease's own claim would wait out its timeout and report only
     * that; a store that gives no answer within one TTL could not keep a lease anyway.
     *
     * @param ours whether the client is the starter's, for {@code idgen.machine-id.etcd.endpoints},
     *     rather than the application's bean
     */
    static void requireAnswer(IdgenProperties.MachineId m, Client client, boolean ours) {
        IdgenProperties.Etcd p = m.getEtcd();
        String setting = ours ? ENDPOINTS + "=" + String.join(",", p.getEndpoints()) : "the application's jetcd Client bean";
        long millis = p.getTtl().toMillis();
        try {
            client.getKVClient().get(ByteSequence.from(p.getNamespace(), StandardCharsets.UTF_8),
                    GetOption.builder().isPrefix(true).withCountOnly(true).build()).get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw StoreFailures.unreachable(StoreFailures.use(m, "etcd"), "etcd", setting, "gave no answer within "
                    + millis + " ms (idgen.machine-id.etcd.ttl bounds the wait)", e);
        } catch (ExecutionException e) {
            throw StoreFailures.unreachable(StoreFailures.use(m, "etcd"), "etcd", setting, "could not be read: "
                    + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdgenConfigurationException("interrupted while reaching etcd at " + setting, e);
        }
    }

    static MachineIdLease acquire(IdgenProperties.Etcd p, SnowflakeLayout layout, Client client,
            boolean reclaimAnyId) {
        if (client == null) {
            throw new IdgenConfigurationException("idgen.machine-id.source=etcd needs " + ENDPOINTS
                    + " (http://host:2379,...) or a jetcd Client bean");
        }
        EtcdMachineIdLease.Builder b = builder(p, layout, client).reclaimAnyId(reclaimAnyId);
        try {
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
        return builder(p, layout, client).machineId(id).acquire();
    }

    /** etcd shows no clock: the skew bound counts twice in its timings. */
    private static EtcdMachineIdLease.Builder builder(IdgenProperties.Etcd p, SnowflakeLayout layout, Client client) {
        EtcdMachineIdLease.Builder b = EtcdMachineIdLease.builder(client);
        Setting.apply("idgen.machine-id.etcd", ".namespace", p.getNamespace(), () -> b.namespace(p.getNamespace()));
        return LeaseBuilders.configure(b, "etcd", p, layout, false);
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
