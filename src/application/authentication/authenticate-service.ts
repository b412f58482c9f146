import type { ChangePosition } from '../../domain/change-position';
import { InvalidServiceKey } from '../../domain/errors';
import { isWellFormedServiceKey, type ServiceCaller } from '../../domain/service-key';
import type { Clock } from '../ports/clock';
import type { CredentialChangeWatcher } from '../ports/credential-change-feed';
import type { LoggedChange } from '../ports/credential-change-log';
import type { Freshness } from '../ports/freshness';
import type { Secrets } from '../ports/secrets';
import type { ServiceKeyLookup } from '../ports/service-keys';

export interface AuthenticateServiceDeps {
  readonly serviceKeys: ServiceKeyLookup;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /** Confirmed before a remembered key is trusted, so a revocation committed before the call is in force for it. */
  readonly freshness: Freshness;
  /**
   * How long a verified key is trusted without reading storage again. A revocation logged in the
   * change log ends the trust at once (`changes`); this bounds it should the instance not hear one.
   */
  readonly trustForMs: number;
}

/**
 * A calling service admitted for one request, with the change position its check confirmed fresh
 * (Freshness): the confirmation began after the request arrived, so the request's own credential
 * check (introspection) may rely on it rather than wait for another round.
 */
export interface AdmittedService extends ServiceCaller {
  readonly confirmedPosition: ChangePosition;
}

/** Bounded: a handful of services call; the bound only stops a misuse from growing memory. */
const MAX_REMEMBERED = 1_000;

interface Remembered {
  readonly caller: ServiceCaller;
  readonly until: number;
}

/**
 * Checks the credential of a calling service (introspection, the change feed). Verified keys are
 * remembered by hash for `trustForMs` on the clock, because a verifier may call thousands of times
 * a second; unknown keys are never remembered. A key revoked or re-scoped (a `service-key` change
 * in the log) is forgotten as soon as the instance applies the change, so its next call reads
 * storage and is refused. Throws InvalidServiceKey for a missing, malformed, unknown or revoked key.
 */
export class AuthenticateService implements CredentialChangeWatcher {
  private readonly remembered = new Map<string, Remembered>();
  /** Moves with every revocation heard: a lookup that began before one answers its call but is not remembered. */
  private generation = 0;

  constructor(private readonly deps: AuthenticateServiceDeps) {}

  /**
   * Whether this key was verified within `trustForMs`, without reading storage: a caller that is
   * not may be a stranger trying keys, and the HTTP adapter rate limits those by address first.
   */
  isTrusted(rawKey: string | undefined): boolean {
    if (rawKey === undefined || !isWellFormedServiceKey(rawKey)) return false;
    const hit = this.remembered.get(this.deps.secrets.sha256Hex(rawKey));
    return hit !== undefined && hit.until > this.deps.clock.now().getTime();
  }

  async execute(rawKey: string | undefined): Promise<AdmittedService> {
    if (rawKey === undefined || !isWellFormedServiceKey(rawKey)) throw new InvalidServiceKey();
    const { serviceKeys, secrets, clock, trustForMs, freshness } = this.deps;
    const confirmedPosition = await freshness.confirm(); // a revocation it applies is forgotten below (`changes`)
    const hash = secrets.sha256Hex(rawKey);
    const now = clock.now().getTime();
    const hit = this.remembered.get(hash);
    if (hit && hit.until > now) return { ...hit.caller, confirmedPosition };
    this.remembered.delete(hash);
    const generation = this.generation;
    const key = await serviceKeys.findActiveByHash(hash);
    if (!key) throw new InvalidServiceKey();
    const caller: ServiceCaller = { serviceKeyId: key.id, name: key.name, scope: key.scope };
    if (generation === this.generation) {
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(hash, { caller, until: now + trustForMs });
    }
    return { ...caller, confirmedPosition };
  }

  changes(batch: readonly LoggedChange[]): void {
    for (const change of batch) {
      if (change.kind !== 'service-key') continue;
      this.generation += 1;
      for (const [hash, { caller }] of this.remembered) if (caller.serviceKeyId === change.serviceKeyId) this.remembered.delete(hash);
    }
  }

  /** Anything may have changed (or the instance stopped hearing): every key is read again at its next call. */
  reset(): void {
    this.generation += 1;
    this.remembered.clear();
  }
}
