import type { Invite } from '../../domain/invite';
import type { RequestOrigin } from '../audit/audit-trail';
import type { Postbox } from '../mail/postbox';
import type { Repositories } from '../ports/repositories';

/**
 * Inside the unit of work that makes or resends an invite: posts the invitation to the invited
 * address, from `inviterEmail`. An address that already has an account (in any tenant: an address
 * belongs to one tenant only) cannot accept, so it is told so, without a link and so without the
 * token. Whether it has one shows only in the message to that address, never in the answer to the
 * inviter.
 */
export async function postInvitation(
  tx: Repositories, postbox: Postbox, invite: Invite, inviterEmail: string, origin: RequestOrigin,
): Promise<void> {
  const tenant = await tx.tenants.findById(invite.tenantId);
  // The caller's standing was read in this unit of work, so the tenant is there; without it there is nobody to name.
  if (!tenant) return;
  const addressing = { to: invite.email, tenantName: tenant.name, inviterEmail, role: invite.role };
  const registeredElsewhere = (await tx.users.findByEmail(invite.email)) !== null;
  await postbox.post(tx, {
    tenantId: invite.tenantId,
    mail: {
      kind: 'invitation',
      input: registeredElsewhere
        ? { ...addressing, registeredElsewhere: true }
        : { ...addressing, registeredElsewhere: false, token: invite.token, expiresAt: invite.expiresAt.toISOString() },
    },
  }, origin);
}
