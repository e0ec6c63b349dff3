package dev.idgen.random.cracfake;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for {@code jdk.crac.Core} on a JDK without CRaC: a global context that records what is
 * registered, and a {@link #checkpointRestore()} that calls every resource's
 * {@code beforeCheckpoint} and then its {@code afterRestore}, as a real checkpoint and restore
 * would (without taking an image). The surefire configuration points {@code org.crac} here
 * ({@code -Dorg.crac.Core.Compat=dev.idgen.random.cracfake}), so {@code org.crac} forwards to it as
 * it would to {@code jdk.crac}.
 */
public final class Core {

    private static final Global GLOBAL = new Global();

    static {
        // org.crac reflects on this package, as it would on jdk.crac; under surefire this package is
        // patched into dev.idgen.core, which exports it to nobody, so export it to org.crac here
        // (org.crac loads this class before it calls anything in it)
        Module self = Core.class.getModule();
        self.addExports(Core.class.getPackageName(), ClassLoader.getSystemClassLoader().getUnnamedModule());
        ModuleLayer.boot().findModule("org.crac").ifPresent(crac -> self.addExports(Core.class.getPackageName(), crac));
    }

    private Core() {
    }

    /** @return the global context */
    public static Context<Resource> getGlobalContext() {
        return GLOBAL;
    }

    /**
     * Calls every registered resource as a checkpoint and restore would.
     *
     * @throws CheckpointException if a resource throws before the checkpoint
     * @throws RestoreException if a resource throws after the restore
     */
    public static void checkpointRestore() throws CheckpointException, RestoreException {
        try {
            GLOBAL.beforeCheckpoint(GLOBAL);
        } catch (Exception e) {
            CheckpointException failed = new CheckpointException();
            failed.addSuppressed(e);
            throw failed;
        }
        try {
            GLOBAL.afterRestore(GLOBAL);
        } catch (Exception e) {
            RestoreException failed = new RestoreException();
            failed.addSuppressed(e);
            throw failed;
        }
    }

    /** @return what has been registered so far, oldest first */
    public static List<Resource> registered() {
        return List.copyOf(GLOBAL.resources);
    }

    private static final class Global extends Context<Resource> {
        // held strongly here (real CRaC holds them weakly): the tests look at what was registered
        final List<Resource> resources = new CopyOnWriteArrayList<>();

        @Override
        public void register(Resource resource) {
            resources.add(resource);
        }

        @Override
        public void beforeCheckpoint(Context<? extends Resource> context) throws Exception {
            for (Resource r : resources) {
                r.beforeCheckpoint(this);
            }
        }

        @Override
        public void afterRestore(Context<? extends Resource> context) throws Exception {
            for (Resource r : resources) {
                r.afterRestore(this);
            }
        }
    }
}
