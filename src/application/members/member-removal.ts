import type { User } from '../../domain/user';
import type { AuditTrail, RequestOrigin } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';
import type { SessionBook } from '../sessions/session-book';
import { type MemberChangeBy, revokeInvitesOutranking } from './membership-transaction';

export interface MemberRemovalDeps {
  readonly clock: Clock;
  readonly trail: AuditTrail;
  /** Where the "you were removed" notice goes. */
  readonly postbox: Postbox;
  readonly sessions: SessionBook;
}

/**
 * A removal's writes, inside the caller's unit of work and after its rules were checked: the member
 * marked removed, their keys revoked, their sessions ended, the invites they sent revoked, the event
 * (`action`: member.removed, or scim.user_removed), and the notice to the address they had.
 */
export async function removeMemberIn(
  tx: Repositories, deps: MemberRemovalDeps, by: MemberChangeBy, target: User, action: 'member.removed' | 'scim.user_removed', origin: RequestOrigin,
): Promise<void> {
  // The member's row first: work still holding the member (a key or an invite being made)
  // commits before this goes on, so the revocations below see what it wrote.
  const now = deps.clock.now();
  await tx.users.markRemoved(by.tenantId, target.id, now);
  const keysRevoked = await tx.apiKeys.revokeAllOf(by.tenantId, target.id);
  await deps.sessions.endAll(tx, { tenantId: by.tenantId, userId: target.id }, by.actor, 'removal', origin);
  const invitesRevoked = await revokeInvitesOutranking(tx, deps.trail, origin, by, target.id, null);
  await tx.auditEvents.append(deps.trail.event(origin, {
    tenantId: by.tenantId,
    actor: by.actor,
    action,
    targetId: target.id,
    // The address too: once removed, the member is in no list that could name the id.
    details: { email: target.email, role: target.role, api_keys_revoked: keysRevoked, invites_revoked: invitesRevoked },
  }));
  const tenant = await tx.tenants.findById(by.tenantId);
  if (tenant) {
    await deps.postbox.post(tx, {
      tenantId: by.tenantId, userId: target.id,
      mail: { kind: 'member-removed', input: { to: target.email, tenantName: tenant.name, removedAt: now.toISOString() } },
    }, origin);
  }
}
