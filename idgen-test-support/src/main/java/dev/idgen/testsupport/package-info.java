/**
 * What the tests of every module need from the machine, in one place: {@link
 * dev.idgen.testsupport.TestPostgres} finds the PostgreSQL server the tests use or, outside CI,
 * starts a private one from PostgreSQL binaries packaged for Maven; {@link
 * dev.idgen.testsupport.Missing} turns a server that is not there into a failure under CI and a
 * skip elsewhere, with the command that installs it; {@link dev.idgen.testsupport.SkipSummary}
 * ends each test run with one line naming what was skipped and that command. Not published.
 */
package dev.idgen.testsupport;
