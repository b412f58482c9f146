import { EMAIL_TOKEN_BYTES, type EmailToken, type EmailTokenPurpose, isUsable, isWellFormedEmailToken } from '../../domain/email-token';
import type { User } from '../../domain/user';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';
import type { Repositories } from '../ports/repositories';
import type { Secrets } from '../ports/secrets';

export interface EmailTokenDeps {
  readonly ids: IdGenerator;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

export interface TokenFor {
  readonly tenantId: string;
  readonly userId: string;
  readonly email: string;
  readonly purpose: EmailTokenPurpose;
  readonly ttlSeconds: number;
  /** The token's id when the caller names what it stands for (an SSO handoff: the session it hands over); fresh otherwise. */
  readonly id?: string;
}

/**
 * Makes and reads the tokens that links carry. A new token voids the member's older ones of the
 * same purpose, in the same unit of work, so only the newest link works. Only the hash is stored;
 * the raw token goes into the message and nowhere else.
 */
export class EmailTokens {
  constructor(private readonly deps: EmailTokenDeps) {}

  async issue(tx: Repositories, target: TokenFor): Promise<string> {
    const { ids, secrets, clock } = this.deps;
    const now = clock.now();
    await tx.emailTokens.voidUnused(target.tenantId, target.userId, target.purpose, now);
    const raw = secrets.randomHex(EMAIL_TOKEN_BYTES);
    await tx.emailTokens.create({
      id: target.id ?? ids.newId(), tenantId: target.tenantId, userId: target.userId, purpose: target.purpose, tokenHash: secrets.sha256Hex(raw),
      email: target.email, createdAt: now, expiresAt: new Date(now.getTime() + target.ttlSeconds * 1000), usedAt: null,
    });
    return raw;
  }

  /**
   * The usable token a link's value names and the member it is for, as they stand now; null when
   * either is gone. A link sent to the member's own address (a reset, a verification) also needs
   * the member still to have that address: one sent to an address they have since left proves
   * nothing. A new address's confirmation was sent to the address the member is moving to.
   */
  async openLink(repos: Repositories, raw: unknown, purpose: EmailTokenPurpose): Promise<{ token: EmailToken; member: User } | null> {
    const token = await this.findUsable(repos, raw, purpose);
    if (!token) return null;
    const member = await repos.users.findById(token.tenantId, token.userId);
    if (!member) return null;
    if (purpose !== 'email_change' && member.email !== token.email) return null;
    return { token, member };
  }

  /** The token a link's value names, if it is of that purpose and still usable now; null otherwise (malformed ones are not looked up). */
  private async findUsable(repos: Repositories, raw: unknown, purpose: EmailTokenPurpose): Promise<EmailToken | null> {
    if (!isWellFormedEmailToken(raw)) return null;
    const token = await repos.emailTokens.findByHash(this.deps.secrets.sha256Hex(raw));
    return token && token.purpose === purpose && isUsable(token, this.deps.clock.now()) ? token : null;
  }
}
