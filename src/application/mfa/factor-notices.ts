import type { NoticeFactor } from '../mail/templates/second-factor-changed';
import type { Postbox } from '../mail/postbox';
import type { RequestOrigin } from '../audit/audit-trail';
import type { Repositories } from '../ports/repositories';
import type { FactorOwner } from './second-factor';

/** A factor added to or removed from a member's account: the member is told, in the unit of work of the change (ASVS V6.3.7 style notice). */
export async function postFactorNotice(
  postbox: Postbox, tx: Repositories, owner: FactorOwner, change: { kind: 'added' } | { kind: 'removed'; byAdmin: boolean },
  factor: NoticeFactor, at: Date, origin: RequestOrigin,
): Promise<void> {
  const tenant = await tx.tenants.findById(owner.tenantId);
  const member = await tx.users.findById(owner.tenantId, owner.userId);
  if (!tenant || !member) return;
  const base = { to: member.email, tenantName: tenant.name, factor, at: at.toISOString() };
  await postbox.post(tx, {
    tenantId: owner.tenantId, userId: owner.userId,
    mail: change.kind === 'added'
      ? { kind: 'second-factor-added', input: base }
      : { kind: 'second-factor-removed', input: { ...base, byAdmin: change.byAdmin } },
  }, origin);
}
