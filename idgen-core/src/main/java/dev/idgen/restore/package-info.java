/**
 * Restores and copies of a process: the CRaC callbacks (Coordinated Restore at Checkpoint, also
 * called by AWS Lambda SnapStart), reached by reflection so that core needs no dependency. Internal
 * to idgen-core: the random source re-keys through it, and coordinator-backed leases shut their
 * fence through it. Not exported.
 */
package dev.idgen.restore;
