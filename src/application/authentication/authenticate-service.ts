import { InvalidServiceKey } from '../../domain/errors';
import { isWellFormedServiceKey, type ServiceCaller } from '../../domain/service-key';
import type { Clock } from '../ports/clock';
import type { Secrets } from '../ports/secrets';
import type { ServiceKeyLookup } from '../ports/service-keys';

export interface AuthenticateServiceDeps {
  readonly serviceKeys: ServiceKeyLookup;
  readonly secrets: Secrets;
  readonly clock: Clock;
  /**
   * How long a verified key is trusted without reading storage again: the longest a revoked key
   * keeps working on an instance (revocation is an operator's command in another process).
   */
  readonly trustForMs: number;
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
 * a second; unknown keys are never remembered. Throws InvalidServiceKey for a missing, malformed,
 * unknown or revoked key.
 */
export class AuthenticateService {
  private readonly remembered = new Map<string, Remembered>();

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

  async execute(rawKey: string | undefined): Promise<ServiceCaller> {
    if (rawKey === undefined || !isWellFormedServiceKey(rawKey)) throw new InvalidServiceKey();
    const { serviceKeys, secrets, clock, trustForMs } = this.deps;
    const hash = secrets.sha256Hex(rawKey);
    const now = clock.now().getTime();
    const hit = this.remembered.get(hash);
    if (hit && hit.until > now) return hit.caller;
    this.remembered.delete(hash);
    const key = await serviceKeys.findActiveByHash(hash);
    if (!key) throw new InvalidServiceKey();
    const caller: ServiceCaller = { serviceKeyId: key.id, name: key.name };
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
    this.remembered.set(hash, { caller, until: now + trustForMs });
    return caller;
  }
}
