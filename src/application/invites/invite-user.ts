import { normalizeEmail } from '../../domain/email';
import { INVITE_TOKEN_BYTES } from '../../domain/invite';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast, DEFAULT_INVITE_ROLE, type InvitableRole } from '../../domain/role';
import { holdCaller } from '../authentication/hold-caller';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Secrets } from '../ports/secrets';
import type { UnitOfWork } from '../ports/unit-of-work';
import { postInvitation } from './post-invitation';

export interface InviteUserInput {
  readonly email: string;
  readonly role?: InvitableRole | undefined;
}

export interface CreatedInvite {
  readonly inviteToken: string;
  readonly expiresAt: Date;
}

export interface InviteUserDeps {
  readonly unitOfWork: UnitOfWork;
  readonly trail: AuditTrail;
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
  readonly inviteTtlSeconds: number;
  /** Where the invitation goes (post-invitation.ts): in the same unit of work as the invite. */
  readonly postbox: Postbox;
}

/**
 * POST /invite. The answer stays the contract's (the token and its expiry); the invited address is
 * also sent the invitation, committed with the invite or not at all. With mail off the invite is
 * still made, and the trail records the message as skipped.
 */
export class InviteUser {
  constructor(private readonly deps: InviteUserDeps) {}

  async execute(caller: Principal, input: InviteUserInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<CreatedInvite> {
    assertRoleAtLeast(caller.role, 'admin');
    const { unitOfWork, trail, ids, secrets, clock, inviteTtlSeconds, postbox } = this.deps;
    const now = clock.now();
    const inviteToken = secrets.randomHex(INVITE_TOKEN_BYTES);
    const expiresAt = new Date(now.getTime() + inviteTtlSeconds * 1000);
    const invite = {
      id: ids.newId(),
      tenantId: caller.tenantId,
      email: normalizeEmail(input.email),
      role: input.role ?? DEFAULT_INVITE_ROLE,
      token: inviteToken,
      invitedBy: caller.userId,
      expiresAt,
      acceptedAt: null,
      createdAt: now,
    };
    await unitOfWork.run(async (tx) => {
      await holdCaller(tx.users, caller, 'admin');
      await tx.invites.create(invite);
      const inviter = await tx.users.findById(caller.tenantId, caller.userId);
      if (!inviter) throw callerGone(caller);
      await postInvitation(tx, postbox, invite, inviter.email, origin);
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: caller.tenantId,
        actor: caller,
        action: 'invite.created',
        targetId: invite.id,
        details: { email: invite.email, role: invite.role, expires_at: expiresAt.toISOString() },
      }));
    });
    return { inviteToken, expiresAt };
  }
}
