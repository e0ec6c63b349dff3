package dev.idgen.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * This reactor as the docs may name it: its modules' artifactIds, its version, and the external
 * artifacts its poms depend on (the only ones a snippet's dependency may name).
 *
 * @param version the root pom's version
 * @param released the last release ({@code idgen.release.latest} in the root pom's properties), or ""
 *     before the first
 * @param modules artifactIds of the root pom and of every module it lists
 * @param externals {@code groupId:artifactId} of every dependency outside dev.idgen in those poms
 */
record Reactor(String version, String released, Set<String> modules, Set<String> externals) {

    /** The group of every module of this reactor. */
    static final String GROUP = "dev.idgen";

    /**
     * @param root the repository root
     * @return the reactor its pom.xml aggregates
     * @throws IOException when a pom cannot be read or parsed
     */
    static Reactor read(Path root) throws IOException {
        Element top = parse(root.resolve("pom.xml"));
        Set<String> modules = new HashSet<>();
        Set<String> externals = new HashSet<>();
        modules.add(child(top, "artifactId"));
        collect(top, externals);
        NodeList list = top.getElementsByTagName("module");
        for (int i = 0; i < list.getLength(); i++) {
            Element pom = parse(root.resolve(list.item(i).getTextContent().trim()).resolve("pom.xml"));
            modules.add(child(pom, "artifactId"));
            collect(pom, externals);
        }
        Element properties = null;
        for (Node n = top.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("properties")) {
                properties = e;
            }
        }
        String released = properties == null ? "" : child(properties, "idgen.release.latest");
        return new Reactor(child(top, "version"), released, Set.copyOf(modules), Set.copyOf(externals));
    }

    /**
     * The version a snippet may write: this one, the release it becomes (no -SNAPSHOT), or the last
     * release, which is what a user can depend on while this one is being built.
     */
    boolean isOurVersion(String v) {
        return v.equals(version) || v.equals(version.replace("-SNAPSHOT", "")) || (!released.isEmpty() && v.equals(released));
    }

    private static void collect(Element pom, Set<String> externals) {
        NodeList deps = pom.getElementsByTagName("dependency");
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            String group = child(d, "groupId");
            if (!group.isEmpty() && !group.equals(GROUP)) {
                externals.add(group + ":" + child(d, "artifactId"));
            }
        }
    }

    /** The text of {@code parent}'s direct child element {@code name}, or "" when it has none. */
    static String child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e.getTextContent().trim();
            }
        }
        return "";
    }

    private static Element parse(Path pom) throws IOException {
        try {
            Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
            return doc.getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(pom + ": " + e.getMessage(), e);
        }
    }
}
