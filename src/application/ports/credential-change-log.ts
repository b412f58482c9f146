import type { ChangePosition } from '../../domain/change-position';

/**
 * One committed change as the change log holds it, at its position (domain/change-position.ts).
 * A member, key or session change names its tenant, so a service that may see only some tenants hears only
 * theirs; `everything` (a TRUNCATE, or an operator's reset) means anything may have changed.
 */
export type LoggedChange =
  | { readonly position: ChangePosition; readonly kind: 'user'; readonly userId: string; readonly tenantId: string }
  | { readonly position: ChangePosition; readonly kind: 'api-key'; readonly keyId: string; readonly tenantId: string }
  | { readonly position: ChangePosition; readonly kind: 'session'; readonly sessionId: string; readonly tenantId: string }
  | { readonly position: ChangePosition; readonly kind: 'service-key'; readonly serviceKeyId: string }
  | { readonly position: ChangePosition; readonly kind: 'everything' };

export interface ChangeLogPage {
  /** The position of the latest committed change (0 before any). */
  readonly head: ChangePosition;
  /** Changes after the position asked for, up to `head`, oldest first, at most the page size asked for. */
  readonly changes: readonly LoggedChange[];
}

/**
 * Every committed credential change with its position, written in the same transaction as the
 * change itself (by the database's triggers on SQL storage). Rows are kept for a while, then pruned.
 */
export interface CredentialChangeLog {
  /** The changes after `after` (at most `limit`) and the head, as of one moment. Throws when storage is unreachable. */
  read(after: ChangePosition, limit: number): Promise<ChangeLogPage>;
  /** Drops changes older than the log keeps; returns how many went. */
  prune(): Promise<number>;
}
