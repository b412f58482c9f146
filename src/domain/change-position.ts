/**
 * A change position: where a committed credential change stands in the one order every Portcullis
 * instance, every verifying service and every cache of theirs agree on.
 *
 * - Every committed change to what a credential check reads (a key revoked or expired, a member
 *   removed, re-roled or logged out, a service key revoked or re-scoped) takes the next position,
 *   in commit order, in the database that holds it; positions start at 1 and have no holes.
 * - An instance's position is the last one it has applied: every change at or before it is
 *   reflected in everything the instance answers from then on. An answer that carries a position
 *   is at least that fresh.
 * - So "is this answer as fresh as what I know?" is one comparison: an answer at position p is
 *   stale for someone who has seen a change at a position above p.
 *
 * Positions are whole numbers below 2^53 (exact in JSON and JavaScript). They belong to one
 * database: a database restored from a backup may count again from an earlier position, which the
 * instances notice and treat as "everything may have changed".
 */
export type ChangePosition = number;

/** Before any change: the position of an empty log. */
export const NO_CHANGE: ChangePosition = 0;
