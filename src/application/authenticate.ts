import { apiKeyLookupPrefix, isWellFormedApiKey } from '../domain/api-key';
import { InvalidApiKey, InvalidApiKeyFormat, InvalidToken, MissingAuthentication } from '../domain/errors';
import type { Principal } from '../domain/principal';
import type { ApiKeyRepository } from './ports/repositories';
import type { Secrets } from './ports/secrets';
import type { TokenService } from './ports/token-service';

/** The two credential headers exactly as they arrived; undefined when absent. */
export interface Credentials {
  readonly apiKey: string | undefined;
  readonly authorization: string | undefined;
}

export interface AuthenticateDeps {
  readonly apiKeys: ApiKeyRepository;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
}

const BEARER = 'Bearer ';

/** Part 5 of the contract, in its order: an API key, when present, is the only credential looked at. */
export class Authenticate {
  constructor(private readonly deps: AuthenticateDeps) {}

  async execute(credentials: Credentials): Promise<Principal> {
    if (credentials.apiKey !== undefined) return this.byApiKey(credentials.apiKey);
    if (credentials.authorization?.startsWith(BEARER)) return this.byBearer(credentials.authorization.slice(BEARER.length));
    throw new MissingAuthentication();
  }

  private async byApiKey(rawKey: string): Promise<Principal> {
    if (!isWellFormedApiKey(rawKey)) throw new InvalidApiKeyFormat();
    const key = await this.deps.apiKeys.findActiveByHash(apiKeyLookupPrefix(rawKey), this.deps.secrets.sha256Hex(rawKey));
    if (!key) throw new InvalidApiKey();
    return { tenantId: key.tenantId, userId: key.userId, role: key.role, method: 'api_key' };
  }

  private byBearer(token: string): Principal {
    const claims = this.deps.tokens.verify(token);
    if (!claims) throw new InvalidToken();
    return { tenantId: claims.tenantId, userId: claims.userId, role: claims.role, method: 'jwt' };
  }
}
