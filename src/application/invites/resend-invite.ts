import { InviteAlreadyAccepted, InviteExpired, InviteNotFound, MailNotConfigured } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import { inviteState } from '../../domain/invite';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import { holdCaller } from '../authentication/hold-caller';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { UnitOfWork } from '../ports/unit-of-work';
import { postInvitation } from './post-invitation';

export interface ResendInviteDeps {
  readonly unitOfWork: UnitOfWork;
  readonly postbox: Postbox;
  readonly clock: Clock;
  readonly trail: AuditTrail;
}

/**
 * POST /invites/:id/resend: the invitation of a pending invite of the caller's tenant, sent again
 * with the same link (the invite and its token are unchanged, so a message already sent keeps
 * working). Who may resend is who may revoke (admin or higher); the inviter the message names is
 * whoever made the invite. Its whole point is a message, so with mail off it is refused before
 * anything is read. The send limits per recipient keep resends from flooding an inbox.
 */
export class ResendInvite {
  constructor(private readonly deps: ResendInviteDeps) {}

  async execute(caller: Principal, inviteId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    const { unitOfWork, postbox, clock, trail } = this.deps;
    if (!postbox.enabled) throw new MailNotConfigured();
    if (!isUuid(inviteId)) throw new InviteNotFound();
    const id = inviteId.toLowerCase();
    await unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'admin');
      const invite = await tx.invites.findById(caller.tenantId, id);
      if (!invite) throw new InviteNotFound();
      const state = inviteState(invite, clock.now());
      if (state === 'accepted') throw new InviteAlreadyAccepted();
      if (state === 'expired') throw new InviteExpired();
      // A removed inviter's invites are revoked with them (membership-transaction.ts), so the
      // inviter is found; the caller's address is only a fallback.
      const inviter = (await tx.users.findById(caller.tenantId, invite.invitedBy)) ?? (await tx.users.findById(caller.tenantId, caller.userId));
      if (!inviter) throw callerGone(caller);
      await postInvitation(tx, postbox, invite, inviter.email, origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'invite.resent', targetId: id, details: { email: invite.email, role: invite.role },
      }));
    });
  }
}
