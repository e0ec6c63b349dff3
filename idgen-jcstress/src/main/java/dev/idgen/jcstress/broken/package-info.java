/**
 * A generator broken on purpose, and the jcstress test that must catch it: proof that the suite can
 * fail. Never use it for anything else.
 */
package dev.idgen.jcstress.broken;
