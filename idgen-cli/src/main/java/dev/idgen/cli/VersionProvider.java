package dev.idgen.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code idgen --version}: the project version Maven wrote into {@code version.properties}. */
public final class VersionProvider implements CommandLine.IVersionProvider {

    /** @return the version, or {@code "unknown"} when the resource is missing */
    public static String version() {
        Properties p = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            return "unknown";
        }
        return p.getProperty("version", "unknown");
    }

    @Override
    public String[] getVersion() {
        return new String[] {"idgen " + version() + " (Java " + Runtime.version() + ")"};
    }
}
