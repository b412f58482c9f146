import { apiKeyLookupPrefix } from '../../domain/api-key';
import type { ChangePosition } from '../../domain/change-position';
import { InvalidApiKey, InvalidApiKeyFormat, InvalidToken, MissingAuthentication } from '../../domain/errors';
import { scopeCovers, type ServiceCaller } from '../../domain/service-key';
import type { Authenticate } from './authenticate';
import type { ChangePositions } from '../ports/change-positions';
import type { CredentialStates } from '../ports/credential-states';
import type { Freshness } from '../ports/freshness';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import { type Amr, PASSWORD_AMR } from '../../domain/second-factor';

/** One credential, as a verifier received it from its own caller. */
export type IntrospectionRequest =
  | { readonly token: string; readonly apiKey?: undefined }
  | { readonly apiKey: string; readonly token?: undefined };

/** Every answer carries the position it is at least as fresh as (domain/change-position.ts). */
export type Introspection =
  | { readonly active: false; readonly position: ChangePosition }
  | {
    readonly active: true;
    readonly position: ChangePosition;
    readonly tenantId: string;
    readonly userId: string;
    readonly role: string;
    readonly method: 'jwt' | 'api_key';
    /** When the credential stops being valid on its own (a token's exp, a key's expiry); null: never. */
    readonly expiresAt: Date | null;
    /** For a key: the id its revocation is announced under on the change feed. */
    readonly keyId?: string;
    /** For a token of a session (its `sid`): the id the session's end is announced under on the change feed. */
    readonly sessionId?: string;
    /** How the caller authenticated: the principal's amr. */
    readonly amr: readonly Amr[];
  };

export interface IntrospectDeps {
  readonly authenticate: Authenticate;
  readonly credentials: CredentialStates;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
  readonly positions: ChangePositions;
  readonly freshness: Freshness;
}

/** The refusals of docs/contract.md, "Authentication of protected routes" that mean "this credential does not stand"; anything else (an outage) is thrown on. */
function isRefusal(error: unknown): boolean {
  return error instanceof InvalidToken || error instanceof InvalidApiKey
    || error instanceof InvalidApiKeyFormat || error instanceof MissingAuthentication;
}

/**
 * Answers for another service whether a credential stands, by the very rules a protected request
 * meets here: the credential goes through Authenticate, so format, revocation, expiry, removal and
 * auth version are decided in one place for both. Every refusal is the same `active: false`; the
 * verifier already knows which credential it sent. A credential of a tenant the calling service
 * may not see is refused the same way.
 *
 * The answer carries this instance's change position, confirmed fresh (Freshness) before the
 * credential is checked: every change committed before the request is in force for it, and the
 * answer reflects at least every change up to its position. A verifier that has already heard of a
 * later change says so (`minPosition`): the instance first reads the change log up to there, so
 * it never answers from a state the verifier knows to be gone.
 */
export class Introspect {
  constructor(private readonly deps: IntrospectDeps) {}

  /**
   * `confirmedPosition`: what the caller's own admission confirmed fresh for this request
   * (AuthenticateService), so the request waits for one freshness round, not two; unset, one is
   * confirmed here.
   */
  async execute(request: IntrospectionRequest, caller: ServiceCaller, minPosition = 0, confirmedPosition?: ChangePosition): Promise<Introspection> {
    const { authenticate, positions, freshness } = this.deps;
    const confirmed = confirmedPosition ?? await freshness.confirm();
    const position = minPosition > confirmed ? await positions.reach(minPosition) : confirmed;
    const inactive: Introspection = { active: false, position };
    const credentials = request.apiKey !== undefined
      ? { apiKey: request.apiKey, authorization: undefined }
      : { apiKey: undefined, authorization: `Bearer ${request.token}` };
    let principal;
    try {
      principal = await authenticate.execute(credentials, true);
    } catch (error) {
      if (isRefusal(error)) return inactive;
      throw error;
    }
    const { tenantId, userId, role, method, sessionId } = principal;
    const amr = principal.amr ?? PASSWORD_AMR;
    if (!scopeCovers(caller.scope, tenantId)) return inactive;
    // An enrollment session (a tenant that requires a second factor, a sign-in without one) opens
    // nothing at a verifying service: only this service's enrollment routes.
    if (principal.enrollmentOnly) return inactive;
    if (request.apiKey === undefined) {
      const expiresAt = this.deps.tokens.expiresAt(request.token);
      return sessionId === undefined
        ? { active: true, position, tenantId, userId, role, method, expiresAt, amr }
        : { active: true, position, tenantId, userId, role, method, expiresAt, sessionId, amr };
    }
    // Authenticate has just found (and kept) this key, so this is answered from memory.
    const { credentials: states, secrets } = this.deps;
    const grant = await states.apiKey(apiKeyLookupPrefix(request.apiKey), secrets.sha256Hex(request.apiKey));
    if (!grant) return inactive; // revoked in between: the later answer wins
    return { active: true, position, tenantId, userId, role, method, expiresAt: grant.expiresAt, keyId: grant.keyId, amr };
  }
}
