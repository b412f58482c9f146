import { InvalidSecondFactor } from '../../domain/errors';
import type { EmailTokens } from '../mail/email-tokens';
import type { Repositories } from '../ports/repositories';
import type { EmailTokenPurpose } from '../../domain/email-token';
import { MFA_TOKEN_PURPOSES } from '../login/login';
import type { PasskeyFactor } from './passkey-factor';
import type { SecondFactors } from './second-factors';

export interface SecondFactorOptionsDeps {
  readonly repos: Repositories;
  readonly emailTokens: EmailTokens;
  readonly factors: SecondFactors;
  readonly passkeyFactor: PasskeyFactor;
}

/**
 * The assertion options for a passkey given as the second factor: of a sign-in (its mfa_token) or
 * of a password reset (its link's token). The challenge is stored for the member and bound to that
 * token's id, so only an assertion sent with the same token answers it (PasskeyFactor.verify). The
 * token is only looked at, not used. An unknown, used or expired token, and a member without a
 * passkey, are answered alike: 401 `Invalid second factor`.
 */
export class SecondFactorOptions {
  constructor(private readonly deps: SecondFactorOptionsDeps) {}

  forSignIn(mfaToken: unknown): Promise<unknown> {
    return this.options(mfaToken, MFA_TOKEN_PURPOSES);
  }

  forReset(resetToken: unknown): Promise<unknown> {
    return this.options(resetToken, 'password_reset');
  }

  private async options(raw: unknown, purpose: EmailTokenPurpose | readonly EmailTokenPurpose[]): Promise<unknown> {
    const { repos, emailTokens, factors, passkeyFactor } = this.deps;
    const link = await emailTokens.openLink(repos, raw, purpose);
    if (!link) throw new InvalidSecondFactor();
    const owner = { tenantId: link.member.tenantId, userId: link.member.id };
    if (!(await factors.methodsOf(repos, owner)).includes('passkey')) throw new InvalidSecondFactor();
    return passkeyFactor.authenticationOptions(owner, link.token.id);
  }
}
