package dev.idgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layers of core, read from the compiled classes (every class name, field and method descriptor
 * and generic signature in each class file's constant pool), so a dependency cannot hide in an
 * import-free fully qualified name:
 * <pre>
 *   clock  &lt;-  sequence  &lt;-  {snowflake, uuid}  &lt;-  decode  &lt;-  the front door (IdGenerators)
 *   the contract (IdGenerator, LongIdGenerator) &lt;- the generators
 *   machine &lt;- machine.spi
 * </pre>
 *
 * <p><b>The root package.</b> {@code dev.idgen} holds two things by design (the public names are
 * fixed): the contract every generator implements, and the front door that builds generators. As
 * packages they form a cycle ({@code snowflake} imports {@code IdGenerator}; {@code IdGenerators}
 * imports {@code snowflake}), so the rule for the root is stated per class: the contract classes
 * import no other idgen package, and only {@code IdGenerators} reaches up. For the cycle check the
 * root is therefore two nodes, "dev.idgen (contract)" and "dev.idgen.IdGenerators".
 */
class LayeringTest {

    private static final String FRONT_DOOR = "dev.idgen.IdGenerators";
    private static final String CONTRACT = "dev.idgen (contract)";
    private static final Pattern REFERENCE = Pattern.compile("dev/idgen/((?:[a-z0-9_]+/)*)([A-Za-z0-9_$]+)");

    /** Node (package, or one of the two root nodes) to the nodes its classes refer to. */
    private static Map<String, Set<String>> graph() throws IOException, URISyntaxException {
        Path classes = Path.of(IdGenerator.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Map<String, Set<String>> graph = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String binary = classes.relativize(file).toString().replace('\\', '/');
                if (binary.equals("module-info.class")) {
                    continue;
                }
                String from = node(binary.substring(0, binary.length() - ".class".length()));
                Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
                for (String name : referencedClasses(file)) {
                    String target = node(name);
                    if (!target.equals(from)) {
                        to.add(target);
                    }
                }
            }
        }
        return graph;
    }

    /** {@return the node of a class given in internal form, e.g. dev/idgen/uuid/Uuids$1} */
    static String node(String internalName) {
        int slash = internalName.lastIndexOf('/');
        String pkg = internalName.substring(0, slash).replace('/', '.');
        if (pkg.equals("dev.idgen")) {
            String top = internalName.substring(slash + 1).split("\\$")[0];
            return top.equals("IdGenerators") ? FRONT_DOOR : CONTRACT;
        }
        return pkg;
    }

    /** Every dev/idgen/... class named in the constant pool of a class file. */
    static Set<String> referencedClasses(Path classFile) throws IOException {
        Set<String> names = new TreeSet<>();
        try (InputStream in = Files.newInputStream(classFile); DataInputStream data = new DataInputStream(in)) {
            if (data.readInt() != 0xCAFEBABE) {
                throw new IOException(classFile + " is not a class file");
            }
            data.readUnsignedShort(); // minor
            data.readUnsignedShort(); // major
            int count = data.readUnsignedShort();
            for (int i = 1; i < count; i++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1 -> { // Utf8: class names, descriptors, signatures
                        Matcher m = REFERENCE.matcher(data.readUTF());
                        while (m.find()) {
                            names.add(m.group());
                        }
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> data.skipBytes(4);
                    case 5, 6 -> {
                        data.skipBytes(8);
                        i++; // a long or double takes two slots
                    }
                    case 7, 8, 16, 19, 20 -> data.skipBytes(2);
                    case 15 -> data.skipBytes(3);
                    default -> throw new IOException(classFile + ": unknown constant pool tag " + tag);
                }
            }
        }
        return names;
    }

    /** {@return one cycle in the graph, as a path that starts and ends at the same node, or an empty list} */
    static List<String> findCycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new TreeMap<>(); // 1 = on the current path, 2 = done
        for (String start : graph.keySet()) {
            Deque<String> path = new ArrayDeque<>();
            List<String> cycle = visit(start, graph, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
            Deque<String> path) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return List.of();
        }
        if (s != null && s == 1) {
            List<String> cycle = new ArrayList<>();
            boolean in = false;
            for (String p : path) {
                in |= p.equals(node);
                if (in) {
                    cycle.add(p);
                }
            }
            cycle.add(node);
            return cycle;
        }
        state.put(node, 1);
        path.addLast(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> cycle = visit(next, graph, state, path);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.removeLast();
        state.put(node, 2);
        return List.of();
    }

    @Test
    void thereIsNoCycleBetweenThePackagesOfCore() throws Exception {
        Map<String, Set<String>> graph = graph();
        assertTrue(graph.containsKey("dev.idgen.snowflake") && graph.containsKey(FRONT_DOOR), "read the classes: " + graph);
        assertEquals(List.of(), findCycle(graph), "a cycle between packages; the graph: " + graph);
    }

    @Test
    void theCycleCheckFindsACycle() {
        // the check itself can fail: the root package taken whole, as javac sees it, is a cycle
        Map<String, Set<String>> graph = new TreeMap<>(Map.of(
                "dev.idgen", Set.of("dev.idgen.snowflake"),
                "dev.idgen.snowflake", new TreeSet<>(Set.of("dev.idgen.sequence", "dev.idgen")),
                "dev.idgen.sequence", Set.of("dev.idgen.clock")));
        assertEquals(List.of("dev.idgen", "dev.idgen.snowflake", "dev.idgen"), findCycle(graph));
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() throws Exception {
        Map<String, Set<String>> graph = graph();
        assertEquals(Set.of(), graph.get("dev.idgen.clock"), "clock is the lowest layer: it imports no idgen package");
        assertEquals(Set.of(), graph.get(CONTRACT), "the contract (IdGenerator, LongIdGenerator) imports no idgen package");
        assertEquals(Set.of("dev.idgen.clock"), graph.get("dev.idgen.sequence"),
                "sequence imports clock alone: no generator package");
        assertTrue(!graph.get("dev.idgen.machine").contains("dev.idgen.machine.spi"),
                "machine (what users pick) does not import machine.spi (what lease implementers use)");
        for (Map.Entry<String, Set<String>> e : graph.entrySet()) {
            for (String to : e.getValue()) {
                assertTrue(!to.startsWith("dev.idgen.testkit") && !to.startsWith("dev.idgen.cli"),
                        e.getKey() + " imports " + to + ": core never imports testkit or cli");
            }
            if (!e.getKey().equals(FRONT_DOOR)) {
                assertTrue(!e.getValue().contains(FRONT_DOOR), e.getKey() + " reaches up to the front door");
            }
        }
    }
}
