import type { Amr } from './second-factor';

/**
 * A session: one sign-in of one member, which every bearer token issued for it names (the `sid`
 * claim). Ending it ends those tokens on every instance from the next request; the member's other
 * sessions go on. It records where it began (bounded as the audit trail bounds them), when it was
 * last used (written in batches, so it lags by up to one write interval), and when its holder last
 * proved who they are (the password at sign-in, or again to renew it).
 */
export interface Session {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly authenticatedAt: Date;
  readonly userAgent: string | null;
  readonly ip: string | null;
  readonly endedAt: Date | null;
  /** The member who ended it (themselves, or an admin); null while live, or when it ended with no actor (a reset by link). */
  readonly endedBy: string | null;
  readonly endReason: SessionEndReason | null;
  /** How the member proved who they are when it began (domain/second-factor.ts). */
  readonly amr: readonly Amr[];
}

/** How a session ended: each is a `session.ended` event's `reason`. */
export const SESSION_END_REASONS = ['logout', 'user', 'admin', 'password_change', 'password_reset', 'email_change', 'removal', 'suspension'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** Who ended sessions and why, as the storage records it. */
export interface SessionEnding {
  readonly at: Date;
  readonly by: string | null;
  readonly reason: SessionEndReason;
}

/**
 * Whether a session last used at `lastSeenAt` has been idle for longer than `idleTimeoutSeconds`
 * at `now` (V7.3.1). Undefined timeout: sessions never idle out.
 */
export function isIdle(lastSeenAt: Date, now: Date, idleTimeoutSeconds: number | undefined): boolean {
  return idleTimeoutSeconds !== undefined && now.getTime() - lastSeenAt.getTime() > idleTimeoutSeconds * 1000;
}
