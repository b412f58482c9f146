import { InvalidConfirmationToken } from '../../domain/errors';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';
import type { TokenService } from '../ports/token-service';
import type { UnitOfWork } from '../ports/unit-of-work';
import type { SessionBook } from '../sessions/session-book';
import { enrollmentClaim } from '../mfa/enrollment-sessions';
import { PASSWORD_AMR } from '../../domain/second-factor';

export interface ConfirmEmailChangeResult {
  readonly token: string;
  readonly expiresIn: string;
}

export interface ConfirmEmailChangeDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly tokens: TokenService;
  readonly emailTokens: EmailTokens;
  readonly postbox: Postbox;
  readonly clock: Clock;
  readonly trail: AuditTrail;
  readonly sessions: SessionBook;
}

/**
 * POST /email/change/confirm: the link sent to the new address moves the account there (ASVS
 * V6.4.1, V7.4.3, V6.3.6). In one unit of work the token is used once and the address changed, only while the member
 * still has the address they had when it was read; the new one counts as proven (the link reached
 * it). The change raises the auth version, so every bearer token issued before (each carries the old
 * address) is refused from the next request; the member's other pending links die with it (reset and
 * verification links went to the old address). The old address is told, with the new one masked.
 * The answer signs the member in at the new address, in a new session: as after a reset, the
 * member's other sessions end (their tokens named the old address and are refused anyway), so the
 * list of sessions shows only what can still be used.
 */
export class ConfirmEmailChange {
  constructor(private readonly deps: ConfirmEmailChangeDeps) {}

  async execute(rawToken: unknown, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<ConfirmEmailChangeResult> {
    const { repos, unitOfWork, tokens, emailTokens, postbox, clock, trail } = this.deps;
    const link = await emailTokens.openLink(repos, rawToken, 'email_change');
    if (!link) throw new InvalidConfirmationToken();
    const { token: found, member: user } = link;

    const changed = await unitOfWork.run(async (tx) => {
      const now = clock.now();
      if (!(await tx.emailTokens.consume(found.tenantId, found.id, now))) return null;
      const tenant = await tx.tenants.findById(user.tenantId);
      // Throws EmailAlreadyRegistered when the address was taken since the request: undone, link and all.
      const after = tenant ? await tx.users.changeEmail(user.tenantId, user.id, { from: user.email, to: found.email }, now) : null;
      // The member left (or changed address again) since they were read: undone, and refused as a dead link.
      if (!tenant || !after) throw new InvalidConfirmationToken();
      for (const purpose of ['email_change', 'email_verify', 'password_reset'] as const) {
        await tx.emailTokens.voidUnused(user.tenantId, user.id, purpose, now);
      }
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'email.changed', targetId: user.id,
        details: { from: user.email, to: after.email },
      }));
      await postbox.post(tx, {
        tenantId: user.tenantId, userId: user.id,
        mail: { kind: 'email-changed-notice', input: { to: user.email, tenantName: tenant.name, newEmail: after.email, changedAt: now.toISOString() } },
      }, origin);
      const member = { tenantId: user.tenantId, userId: user.id };
      await this.deps.sessions.endAll(tx, member, { userId: user.id, method: 'none' }, 'email_change', origin);
      return { user: after, sessionId: await this.deps.sessions.start(tx, member, 'email_change', origin) };
    });
    // Used, or voided, since it was read.
    if (!changed) throw new InvalidConfirmationToken();

    const { user: member, sessionId } = changed;
    const token = tokens.issue({
      tenantId: member.tenantId, userId: member.id, email: member.email, role: member.role, authVersion: member.authVersion, sessionId,
      ...await enrollmentClaim(repos, member.tenantId, PASSWORD_AMR),
    });
    return { token, expiresIn: tokens.expiresIn };
  }
}
