import { apiKeyLookupPrefix, isApiKeyExpired, isWellFormedApiKey } from '../../domain/api-key';
import { InvalidApiKey, InvalidApiKeyFormat, InvalidToken, MissingAuthentication } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { isIdle } from '../../domain/session';
import { INITIAL_AUTH_VERSION } from '../../domain/user';
import type { ApiKeyUsage } from '../ports/api-key-usage';
import type { Clock } from '../ports/clock';
import type { CredentialStates } from '../ports/credential-states';
import type { Freshness } from '../ports/freshness';
import type { SessionState } from '../ports/repositories';
import type { SessionActivity } from '../ports/session-activity';
import type { Secrets } from '../ports/secrets';
import type { TokenService } from '../ports/token-service';
import { type Amr, PASSWORD_AMR } from '../../domain/second-factor';

/** An API key's amr: a machine credential, not a sign-in. */
const API_KEY_AMR: readonly Amr[] = Object.freeze(['api_key']);

/** The two credential headers exactly as they arrived; undefined when absent. */
export interface Credentials {
  readonly apiKey: string | undefined;
  readonly authorization: string | undefined;
}

export interface AuthenticateDeps {
  /** Answered from each instance's memory on the hot path; see CredentialStates. */
  readonly credentials: CredentialStates;
  /** Confirmed before members and keys are read, so a change committed before the request is in force for it. */
  readonly freshness: Freshness;
  readonly keyUsage: ApiKeyUsage;
  readonly tokens: TokenService;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Where a session's use is recorded (last_seen_at) and this instance's latest use of it is kept. */
  readonly sessionActivity: SessionActivity;
  /** SESSION_IDLE_TIMEOUT_SECONDS: a session unused for longer is refused. Undefined: never. */
  readonly idleTimeoutSeconds?: number | undefined;
}

const BEARER = 'Bearer ';

/**
 * Part 5 of the contract, in its order: an API key, when present, is the only credential looked at.
 * A key acts with its owner's current role, and an expired key is refused like an unknown one.
 * A bearer token acts with the tenant, user and role its claims name, as given (a role this service
 * does not know counts as level 0 and passes no role check); beyond the signature it must still stand
 * for a member of that tenant at the auth version it was issued at, so a token whose user was removed,
 * or whose role or password changed after it was issued, is refused. A token that names a session
 * (`sid`) stands only while that session of that member lives and has not been idle past the idle
 * timeout; a token without one is checked as before sessions existed.
 */
export class Authenticate {
  constructor(private readonly deps: AuthenticateDeps) {}

  /**
   * `confirmed`: the caller has itself confirmed freshness since the request arrived (introspection,
   * which reports the position it confirmed); otherwise a credential that is well formed waits for
   * it here. Throws AuthenticationUnavailable when freshness cannot be confirmed.
   */
  async execute(credentials: Credentials, confirmed = false): Promise<Principal> {
    if (credentials.apiKey !== undefined) return this.byApiKey(credentials.apiKey, confirmed);
    if (credentials.authorization?.startsWith(BEARER)) return this.byBearer(credentials.authorization.slice(BEARER.length), confirmed);
    throw new MissingAuthentication();
  }

  private async byApiKey(rawKey: string, confirmed: boolean): Promise<Principal> {
    if (!isWellFormedApiKey(rawKey)) throw new InvalidApiKeyFormat();
    if (!confirmed) await this.deps.freshness.confirm();
    const { credentials, secrets, clock, keyUsage } = this.deps;
    const key = await credentials.apiKey(apiKeyLookupPrefix(rawKey), secrets.sha256Hex(rawKey));
    const now = clock.now();
    if (!key || isApiKeyExpired(key.expiresAt, now)) throw new InvalidApiKey();
    const owner = await credentials.user(key.tenantId, key.userId);
    if (!owner) throw new InvalidApiKey();
    keyUsage.recordUse(key.tenantId, key.keyId, now);
    return { tenantId: key.tenantId, userId: key.userId, role: owner.role, method: 'api_key', amr: API_KEY_AMR };
  }

  private async byBearer(token: string, confirmed: boolean): Promise<Principal> {
    const claims = this.deps.tokens.verify(token);
    if (!claims) throw new InvalidToken();
    if (!confirmed) await this.deps.freshness.confirm();
    const user = await this.deps.credentials.user(claims.tenantId, claims.userId);
    if (!user || user.authVersion !== (claims.authVersion ?? INITIAL_AUTH_VERSION)) throw new InvalidToken();
    const { sessionId } = claims;
    const amr = claims.amr ?? PASSWORD_AMR;
    // The claims as given: every role change raises the auth version, so a token this service issued
    // at the member's current version carries the member's current role.
    const enrollment = claims.enrollmentOnly ? { enrollmentOnly: true } : {};
    if (sessionId === undefined) return { tenantId: claims.tenantId, userId: claims.userId, role: claims.role, method: 'jwt', amr, ...enrollment };
    await this.checkSession(claims.tenantId, claims.userId, sessionId);
    return { tenantId: claims.tenantId, userId: claims.userId, role: claims.role, method: 'jwt', sessionId, amr, ...enrollment };
  }

  /** Live, the member's, and not idle (V7.3.1); its use is then recorded. */
  private async checkSession(tenantId: string, userId: string, sessionId: string): Promise<void> {
    const { credentials, clock, sessionActivity } = this.deps;
    const now = clock.now();
    let session = await credentials.session(tenantId, sessionId);
    if (!session || session.userId !== userId) throw new InvalidToken();
    if (this.idle(session, now)) {
      // What is remembered may predate a use another instance has written since: storage decides.
      session = await credentials.session(tenantId, sessionId, true);
      if (!session || session.userId !== userId || this.idle(session, now)) throw new InvalidToken();
    }
    sessionActivity.recordUse(tenantId, sessionId, now);
  }

  private idle(session: SessionState, now: Date): boolean {
    if (this.deps.idleTimeoutSeconds === undefined) return false;
    const seenHere = this.deps.sessionActivity.lastUse(session.sessionId);
    const lastSeen = seenHere && seenHere > session.lastSeenAt ? seenHere : session.lastSeenAt;
    return isIdle(lastSeen, now, this.deps.idleTimeoutSeconds);
  }
}
