import { MailNotConfigured } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { type RequestOrigin, UNKNOWN_ORIGIN } from '../audit/audit-trail';
import { callerGone } from '../authentication/caller-gone';
import type { UnitOfWork } from '../ports/unit-of-work';
import { postVerificationLink, type VerificationLinkDeps } from './verification-link';

export interface ResendVerificationDeps {
  readonly unitOfWork: UnitOfWork;
  readonly verification: VerificationLinkDeps;
}

/**
 * POST /email/verify/resend: a fresh link for the caller's own address, which voids the older one.
 * An address already proven gets nothing, and the caller the same answer: the request changes
 * nothing then. The whole point is a message, so with mail off it is refused (MailNotConfigured).
 */
export class ResendVerification {
  constructor(private readonly deps: ResendVerificationDeps) {}

  async execute(caller: Principal, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    const { unitOfWork, verification } = this.deps;
    if (!verification.postbox.enabled) throw new MailNotConfigured();
    await unitOfWork.run(async (tx) => {
      const user = await tx.users.findById(caller.tenantId, caller.userId);
      const tenant = await tx.tenants.findById(caller.tenantId);
      if (!user || !tenant) throw callerGone(caller);
      if ((await tx.users.emailVerifiedAt(user.tenantId, user.id)) !== null) return;
      await postVerificationLink(tx, verification, { tenantId: user.tenantId, tenantName: tenant.name, userId: user.id, email: user.email }, origin);
    });
  }
}
