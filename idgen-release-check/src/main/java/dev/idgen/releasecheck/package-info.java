/**
 * The release check: builds the bundle Central would get from the published modules, locally, and
 * names every artifact that would be rejected and why. {@link dev.idgen.releasecheck.ReleaseCheck}
 * is the entry point; {@link dev.idgen.releasecheck.Pom} reads the reactor's poms with the
 * inheritance Maven applies to the checked elements; {@link dev.idgen.releasecheck.Signer} signs
 * with a throwaway gpg key; {@link dev.idgen.releasecheck.Checksums} writes and checks the
 * checksum files.
 */
package dev.idgen.releasecheck;
