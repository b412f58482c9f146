import { InvalidScimToken } from '../../domain/errors';
import { looksLikeScimToken } from '../../domain/scim';
import type { Clock } from '../ports/clock';
import type { ScimTokenRepository } from '../ports/scim-tokens';
import type { Secrets } from '../ports/secrets';
import type { ScimCaller } from './scim-caller';

/** last_used_at is a hint for the owner, not a log: one write a minute per token is enough. */
const LAST_USE_RESOLUTION_MS = 60_000;

export interface AuthenticateScimDeps {
  readonly scimTokens: ScimTokenRepository;
  readonly secrets: Secrets;
  readonly clock: Clock;
}

/**
 * Admits a SCIM request by its bearer token: the tenant whose current token hashes to it. Read from
 * storage on every request, so a token revoked or replaced on any instance is refused at once. A
 * value that cannot be a token costs no hash and no lookup. Every refusal is the same 401.
 */
export class AuthenticateScim {
  constructor(private readonly deps: AuthenticateScimDeps) {}

  async execute(rawToken: string | undefined): Promise<ScimCaller> {
    if (rawToken === undefined || !looksLikeScimToken(rawToken)) throw new InvalidScimToken();
    const { scimTokens, secrets, clock } = this.deps;
    const tokenHash = secrets.sha256Hex(rawToken);
    const token = await scimTokens.findByHash(tokenHash);
    if (!token) throw new InvalidScimToken();
    const now = clock.now();
    if (token.lastUsedAt === null || now.getTime() - token.lastUsedAt.getTime() >= LAST_USE_RESOLUTION_MS) {
      await scimTokens.markUsed(token.tenantId, tokenHash, now);
    }
    return { tenantId: token.tenantId, tokenHash };
  }
}
