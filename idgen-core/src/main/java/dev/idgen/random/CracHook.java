package dev.idgen.random;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers a CRaC resource (Coordinated Restore at Checkpoint) without a compile-time dependency:
 * by reflection, with a {@link Proxy} standing in for the API's {@code Resource} interface.
 *
 * <p>The API is looked for at run time, first {@code org.crac} (the library that works on any JDK
 * and forwards to the JDK's own API where there is one; AWS Lambda SnapStart calls its resources
 * too), then {@code jdk.crac} (built into CRaC-enabled JDKs). On a JDK without CRaC,
 * {@code org.crac} registers nothing and calls nothing, and neither does this class.
 *
 * <p>CRaC holds resources weakly: the caller must keep the returned object reachable for as long as
 * it wants the callbacks.
 */
final class CracHook {

    /** The packages tried, in order. */
    static final List<String> APIS = List.of("org.crac", "jdk.crac");

    private static final Logger LOG = LoggerFactory.getLogger(CracHook.class);

    private CracHook() {
    }

    /**
     * @param onCheckpointOrRestore run before a checkpoint and after a restore
     * @return the registered resource (keep it reachable), or null when no CRaC API is there
     */
    static Object register(Runnable onCheckpointOrRestore) {
        return register(APIS, onCheckpointOrRestore);
    }

    static Object register(List<String> apis, Runnable onCheckpointOrRestore) {
        ClassLoader loader = CracHook.class.getClassLoader();
        for (String api : apis) {
            Class<?> resource;
            try {
                resource = Class.forName(api + ".Resource", false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // not on the class path: try the next
            }
            try {
                Object registered = register(api, resource, loader, onCheckpointOrRestore);
                LOG.debug("re-keying RandomSource stripes before each {} checkpoint and after each restore", api);
                return registered;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                LOG.warn("{} is present but a resource could not be registered with it; RandomSource "
                        + "re-keys after a restore only on the clock and process-id signals", api, e);
            }
        }
        return null;
    }

    private static Object register(String api, Class<?> resource, ClassLoader loader, Runnable callback)
            throws ReflectiveOperationException {
        Class<?> core = Class.forName(api + ".Core", true, loader);
        Class<?> context = Class.forName(api + ".Context", false, loader);
        Object global = core.getMethod("getGlobalContext").invoke(null);
        Object proxy = Proxy.newProxyInstance(resource.getClassLoader(), new Class<?>[] {resource},
                new Callbacks(api, callback));
        // Context.register, the public abstract method: the global context's own class may not be public
        context.getMethod("register", resource).invoke(global, proxy);
        return proxy;
    }

    /** Answers the resource's two callbacks and the {@code Object} methods a weak map will call. */
    private static final class Callbacks implements InvocationHandler {
        private final String api;
        private final Runnable callback;

        Callbacks(String api, Runnable callback) {
            this.api = api;
            this.callback = callback;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            switch (method.getName()) {
                case "beforeCheckpoint":
                case "afterRestore":
                    callback.run();
                    return null;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                case "toString":
                    return "idgen RandomSource re-key on " + api + " checkpoint/restore";
                default:
                    throw new UnsupportedOperationException(method.toString());
            }
        }
    }
}
