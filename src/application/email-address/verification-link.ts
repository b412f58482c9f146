import type { RequestOrigin } from '../audit/audit-trail';
import type { EmailTokens } from '../mail/email-tokens';
import type { Postbox } from '../mail/postbox';
import type { Repositories } from '../ports/repositories';

export interface VerificationLinkDeps {
  readonly postbox: Postbox;
  readonly emailTokens: EmailTokens;
  readonly verifyTtlSeconds: number;
}

export interface VerificationTarget {
  readonly tenantId: string;
  readonly tenantName: string;
  readonly userId: string;
  readonly email: string;
}

/**
 * Inside the caller's unit of work: a fresh verification token for the member's current address
 * (voiding any older one) and the message that carries it. Signup and resend share it, so both
 * send the same link with the same lifetime. With mail off the postbox records `email.skipped`.
 */
export async function postVerificationLink(
  tx: Repositories, deps: VerificationLinkDeps, target: VerificationTarget, origin: RequestOrigin,
): Promise<void> {
  const { postbox, emailTokens, verifyTtlSeconds } = deps;
  const token = await emailTokens.issue(tx, {
    tenantId: target.tenantId, userId: target.userId, email: target.email, purpose: 'email_verify', ttlSeconds: verifyTtlSeconds,
  });
  await postbox.post(tx, {
    tenantId: target.tenantId, userId: target.userId,
    mail: {
      kind: 'verify-email',
      input: { to: target.email, tenantName: target.tenantName, token, validHours: Math.ceil(verifyTtlSeconds / 3600) },
    },
  }, origin);
}
