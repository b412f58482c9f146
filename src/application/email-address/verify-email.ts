import { InvalidVerificationToken } from '../../domain/errors';
import { AuditTrail, type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Clock } from '../ports/clock';
import type { Repositories } from '../ports/repositories';
import type { UnitOfWork } from '../ports/unit-of-work';

export interface VerifyEmailDeps {
  readonly repos: Repositories;
  readonly unitOfWork: UnitOfWork;
  readonly emailTokens: EmailTokens;
  readonly clock: Clock;
  readonly trail: AuditTrail;
}

/**
 * POST /email/verify: whoever holds the link proves they read the address it was sent to (ASVS
 * V6.4.1). The token is used once and the address marked proven in one unit of work, and only while
 * it is still the member's: a link sent to an address they have since left proves nothing. Every
 * refusal (unknown, used, voided, expired, malformed, or for an address left) is the same error.
 */
export class VerifyEmail {
  constructor(private readonly deps: VerifyEmailDeps) {}

  async execute(rawToken: unknown, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { repos, unitOfWork, emailTokens, clock, trail } = this.deps;
    const link = await emailTokens.openLink(repos, rawToken, 'email_verify');
    if (!link) throw new InvalidVerificationToken();
    const { token: found, member: user } = link;

    const verified = await unitOfWork.run(async (tx) => {
      const now = clock.now();
      if (!(await tx.emailTokens.consume(found.tenantId, found.id, now))) return false;
      // The address changed since it was read: undone, and refused like any other dead link.
      if (!(await tx.users.markEmailVerified(user.tenantId, user.id, found.email, now))) throw new InvalidVerificationToken();
      await tx.auditEvents.append(trail.event(origin, {
        tenantId: user.tenantId, actor: { userId: user.id, method: 'none' }, action: 'email.verified', targetId: user.id,
      }));
      return true;
    });
    // Used, or voided, since it was read.
    if (!verified) throw new InvalidVerificationToken();
  }
}
