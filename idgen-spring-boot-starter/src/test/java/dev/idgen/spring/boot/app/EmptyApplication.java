package dev.idgen.spring.boot.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application with nothing of its own: every auto-configuration on the test class path, and in
 * a package of its own, so that neither entities nor repositories of the other tests are scanned.
 */
@SpringBootApplication
public class EmptyApplication {
}
