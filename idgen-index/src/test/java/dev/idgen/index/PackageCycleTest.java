package dev.idgen.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idgen.index.engine.RealRunner;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * No package cycles in idgen-index: the packages of its compiled main classes, with an edge from a
 * package to every other idgen-index package its classes name in their constant pools (class
 * references, field and method descriptors, signatures), must form a graph without a cycle.
 *
 * <p>The constant pool is read by hand (java.lang.classfile is not in Java 17): only the pool, up
 * to its end, which is all a class's references to other classes are made of.
 */
class PackageCycleTest {

    private static final String ROOT = "dev/idgen/index/";
    private static final Pattern NAMED = Pattern.compile("dev/idgen/index/([a-z0-9_]+)/");

    @Test
    void theMainClassesOfIdgenIndexFormNoPackageCycle() throws Exception {
        Map<String, Set<String>> graph = graph(mainClasses());
        assertTrue(graph.keySet().containsAll(Set.of("model", "engine", "predict", "report", "run")), graph.toString());
        // the reader sees real edges: the runner builds the model; the real-run orchestration uses the rest
        assertTrue(graph.get("engine").contains("model"), graph.toString());
        assertTrue(graph.get("run").containsAll(Set.of("engine", "predict", "report")), graph.toString());
        assertEquals(List.of(), cycle(graph), "a package cycle in idgen-index; the graph: " + graph);
    }

    @Test
    void aCycleIsFoundAndNamed() {
        Map<String, Set<String>> graph = new TreeMap<>();
        graph.put("a", Set.of("b"));
        graph.put("b", Set.of("c"));
        graph.put("c", Set.of("a", "d"));
        graph.put("d", Set.of());
        assertEquals(List.of("a", "b", "c", "a"), cycle(graph));
        graph.put("c", Set.of("d"));
        assertEquals(List.of(), cycle(graph), "a chain is no cycle");
    }

    @Test
    void theReaderFindsTheNamesInAClassFilesConstantPool() throws IOException {
        // this test class names RealRunner (engine) in its pool, and its own package is the root
        byte[] bytes;
        try (var in = PackageCycleTest.class.getResourceAsStream("PackageCycleTest.class")) {
            bytes = in.readAllBytes();
        }
        Set<String> named = new TreeSet<>();
        for (String s : utf8Constants(bytes)) {
            Matcher m = NAMED.matcher(s);
            while (m.find()) {
                named.add(m.group(1));
            }
        }
        assertTrue(named.contains("engine"), named.toString());
    }

    private static Path mainClasses() throws URISyntaxException {
        Path root = Path.of(RealRunner.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(root.resolve(ROOT)), "compiled main classes at " + root);
        return root;
    }

    /** Package (the segment after dev.idgen.index) to the other idgen-index packages it names. */
    static Map<String, Set<String>> graph(Path classes) throws IOException {
        Map<String, Set<String>> graph = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classes.resolve(ROOT))) {
            files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        for (Path f : files) {
            String rel = classes.resolve(ROOT).relativize(f).toString().replace('\\', '/');
            if (rel.indexOf('/') < 0) {
                continue; // a class in dev.idgen.index itself: none today
            }
            String from = rel.substring(0, rel.indexOf('/'));
            Set<String> to = graph.computeIfAbsent(from, k -> new TreeSet<>());
            for (String s : utf8Constants(Files.readAllBytes(f))) {
                Matcher m = NAMED.matcher(s);
                while (m.find()) {
                    if (!m.group(1).equals(from)) {
                        to.add(m.group(1));
                    }
                }
            }
        }
        return graph;
    }

    /** The first cycle found, as a path that ends where it starts; empty if there is none. */
    static List<String> cycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new TreeMap<>(); // absent: not seen; 1: on the path; 2: done
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            List<String> found = visit(start, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state, List<String> path) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return List.of();
        }
        if (s != null) {
            List<String> loop = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            loop.add(node);
            return loop;
        }
        state.put(node, 1);
        path.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> found = visit(next, graph, state, path);
            if (!found.isEmpty()) {
                return found;
            }
        }
        path.remove(path.size() - 1);
        state.put(node, 2);
        return List.of();
    }

    /**
     * The UTF-8 constants of a class file's constant pool (JVM specification, 4.4): class names,
     * descriptors and signatures among them.
     */
    static List<String> utf8Constants(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        List<String> strings = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> strings.add(in.readUTF()); // Utf8: u2 length, modified UTF-8, as readUTF reads it
                case 7, 8, 16, 19, 20 -> in.skipBytes(2); // Class, String, MethodType, Module, Package
                case 15 -> in.skipBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4); // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> {
                    in.skipBytes(8); // Long, Double: two slots
                    i++;
                }
                default -> throw new IOException("constant pool tag " + tag + " at entry " + i + " is not known");
            }
        }
        return strings;
    }
}
