package dev.idgen.machine;

import java.util.Map;
import java.util.Objects;

/**
 * Machine ids from the environment, for deployments that already give every process a unique
 * number: an explicit variable ({@code MACHINE_ID=7}) or the ordinal of a Kubernetes StatefulSet
 * pod, whose name ({@code orders-7}) is unique among the set's live pods.
 *
 * <p>Such ids are held for as long as the process runs; uniqueness is the deployment's promise,
 * not checked here. The range is checked: every method takes the largest id the caller's layout
 * accepts and fails at once, naming the variable and its value, when the id is missing, not a
 * number or out of range.
 */
public final class MachineIds {

    private MachineIds() {
    }

    /**
     * The machine id in environment variable {@code name}, a decimal number.
     *
     * @param name the variable, for example {@code MACHINE_ID}
     * @param maxMachineId the largest id allowed, e.g. {@code layout.maxMachineId()}
     * @return a lease that never ends
     * @throws IllegalArgumentException if the variable is unset, blank, not a number or outside
     *     {@code 0..maxMachineId}
     */
    public static MachineIdLease fromVariable(String name, long maxMachineId) {
        return fromVariable(name, maxMachineId, System.getenv());
    }

    /**
     * As {@link #fromVariable(String, long)}, reading {@code env} instead of the process
     * environment.
     *
     * @param name the variable
     * @param maxMachineId the largest id allowed
     * @param env the environment
     * @return a lease that never ends
     */
    public static MachineIdLease fromVariable(String name, long maxMachineId, Map<String, String> env) {
        String value = require(name, env);
        String source = "environment variable " + name + "=" + printable(value);
        return inRange(parse(value.strip(), source, maxMachineId), maxMachineId, source);
    }

    /**
     * The ordinal of a StatefulSet pod whose name is in environment variable {@code name}: the
     * digits after the last {@code '-'}, so {@code orders-7} gives 7. Kubernetes sets
     * {@code HOSTNAME} to the pod name; the downward API can set another variable from
     * {@code metadata.name}.
     *
     * @param name the variable holding the pod name, for example {@code HOSTNAME}
     * @param maxMachineId the largest id allowed
     * @return a lease that never ends
     * @throws IllegalArgumentException if the variable is unset or blank, the name does not end in
     *     {@code -<digits>}, or the ordinal is outside {@code 0..maxMachineId}
     */
    public static MachineIdLease fromPodOrdinal(String name, long maxMachineId) {
        return fromPodOrdinal(name, maxMachineId, System.getenv());
    }

    /**
     * As {@link #fromPodOrdinal(String, long)}, reading {@code env} instead of the process
     * environment.
     *
     * @param name the variable holding the pod name
     * @param maxMachineId the largest id allowed
     * @param env the environment
     * @return a lease that never ends
     */
    public static MachineIdLease fromPodOrdinal(String name, long maxMachineId, Map<String, String> env) {
        String pod = require(name, env).strip();
        String source = "the ordinal of pod name " + pod + " in environment variable " + name;
        int dash = pod.lastIndexOf('-');
        String digits = dash < 0 ? "" : pod.substring(dash + 1);
        if (dash <= 0 || digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("Pod name '" + pod + "' in environment variable " + name
                    + " does not end in a StatefulSet ordinal (<name>-<number>, e.g. orders-7)");
        }
        return inRange(parse(digits, source, maxMachineId), maxMachineId, source);
    }

    private static String require(String name, Map<String, String> env) {
        Objects.requireNonNull(name, "name");
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("Environment variable " + name
                    + " is " + (value == null ? "not set" : "blank") + "; it must hold this process's machine id");
        }
        return value;
    }

    /** Only ASCII digits: {@code Long.parseLong} would also take {@code +7} and other scripts' digits. */
    private static long parse(String text, String source, long maxMachineId) {
        boolean digits = !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9');
        try {
            if (digits) {
                return Long.parseLong(text);
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Machine id " + text + " from " + source
                    + " is outside the allowed range 0.." + maxMachineId, e); // more digits than a long holds
        }
        throw new IllegalArgumentException("Machine id '" + printable(text) + "' from " + source
                + " is not a decimal number in 0.." + maxMachineId + " written in ASCII digits (no sign)");
    }

    /** The text with anything but printable ASCII written as a Unicode escape, safe for a log line. */
    private static String printable(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> {
            if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
            } else {
                out.append(String.format("\\u%04x", c));
            }
        });
        return out.toString();
    }

    private static MachineIdLease inRange(long id, long maxMachineId, String source) {
        if (maxMachineId < 0) {
            throw new IllegalArgumentException("maxMachineId " + maxMachineId + " is negative");
        }
        if (id < 0 || id > maxMachineId) {
            throw new IllegalArgumentException("Machine id " + id + " from " + source
                    + " is outside the allowed range 0.." + maxMachineId);
        }
        return new ConfiguredMachineId(id, source);
    }
}
