/**
 * Two processes counting on one segment store while the store goes away and comes back: a child
 * JVM that writes every number it takes to files ({@link dev.idgen.testkit.segment.SegmentWriterMain}),
 * and the run that starts the children, breaks the store mid-run and checks that every number is
 * distinct ({@link dev.idgen.testkit.segment.TwoProcessRun}). Each store's tests supply how to reach
 * the store ({@link dev.idgen.testkit.segment.SegmentStoreOpener}) and how to stop and start it
 * ({@link dev.idgen.testkit.segment.StoreOutage}). {@link dev.idgen.testkit.segment.CrashRestartRun}
 * kills a store right after a grant, starts it again, and counts the numbers granted twice;
 * {@link dev.idgen.testkit.segment.ServerProcess} runs a store's server as a child process a test can
 * kill.
 */
package dev.idgen.testkit.segment;
