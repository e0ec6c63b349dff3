package dev.idgen.restore;

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
 * it wants the callbacks. Internal to idgen-core (the package is not exported): the random source
 * re-keys through it, and every coordinator-backed lease shuts its fence through it.
 */
public final class CracHook {

    /** The packages tried, in order. */
    static final List<String> APIS = List.of("org.crac", "jdk.crac");

    private static final Logger LOG = LoggerFactory.getLogger(CracHook.class);

    private CracHook() {
    }

    /**
     * @param what what the callbacks do, for logs and the resource's name
     * @param beforeCheckpoint run before a checkpoint is taken
     * @param afterRestore run after a restore
     * @return the registered resource (keep it reachable), or null when no CRaC API is there
     */
    public static Object register(String what, Runnable beforeCheckpoint, Runnable afterRestore) {
        return register(APIS, what, beforeCheckpoint, afterRestore);
    }

    /**
     * {@link #register(String, Runnable, Runnable)} looking for the given API packages, in order.
     *
     * @param apis the packages to look in, for example {@code org.crac}
     * @param what what the callbacks do
     * @param beforeCheckpoint run before a checkpoint is taken
     * @param afterRestore run after a restore
     * @return the registered resource, or null
     */
    public static Object register(List<String> apis, String what, Runnable beforeCheckpoint, Runnable afterRestore) {
        ClassLoader loader = CracHook.class.getClassLoader();
        for (String api : apis) {
            Class<?> resource;
            try {
                resource = Class.forName(api + ".Resource", false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // not on the class path: try the next
            }
            try {
                Object registered = register(api, resource, loader, what, beforeCheckpoint, afterRestore);
                LOG.debug("{}: registered with {} for its checkpoint and restore callbacks", what, api);
                return registered;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                LOG.warn("{} is present but a resource could not be registered with it ({}); restores are then"
                        + " noticed only by the clock and process-id signals", api, what, e);
            }
        }
        return null;
    }

    private static Object register(String api, Class<?> resource, ClassLoader loader, String what,
            Runnable beforeCheckpoint, Runnable afterRestore) throws ReflectiveOperationException {
        Class<?> core = Class.forName(api + ".Core", true, loader);
        Class<?> context = Class.forName(api + ".Context", false, loader);
        Object global = core.getMethod("getGlobalContext").invoke(null);
        Object proxy = Proxy.newProxyInstance(resource.getClassLoader(), new Class<?>[] {resource},
                new Callbacks(api, what, beforeCheckpoint, afterRestore));
        // Context.register, the public abstract method: the global context's own class may not be public
        context.getMethod("register", resource).invoke(global, proxy);
        return proxy;
    }

    /** Answers the resource's two callbacks and the {@code Object} methods a weak map will call. */
    private static final class Callbacks implements InvocationHandler {
        private final String api;
        private final String what;
        private final Runnable beforeCheckpoint;
        private final Runnable afterRestore;

        Callbacks(String api, String what, Runnable beforeCheckpoint, Runnable afterRestore) {
            this.api = api;
            this.what = what;
            this.beforeCheckpoint = beforeCheckpoint;
            this.afterRestore = afterRestore;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            switch (method.getName()) {
                case "beforeCheckpoint":
                    beforeCheckpoint.run();
                    return null;
                case "afterRestore":
                    afterRestore.run();
                    return null;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                case "toString":
                    return "idgen " + what + " on " + api + " checkpoint/restore";
                default:
                    throw new UnsupportedOperationException(method.toString());
            }
        }
    }
}
