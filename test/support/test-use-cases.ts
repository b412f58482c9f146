import type { ApiKeyUsage } from '../../src/application/ports/api-key-usage';
import type { ChangePositions } from '../../src/application/ports/change-positions';
import type { Clock } from '../../src/application/ports/clock';
import type { CredentialChangeFeed } from '../../src/application/ports/credential-change-feed';
import type { CredentialStates } from '../../src/application/ports/credential-states';
import type { ServiceKeyLookup } from '../../src/application/ports/service-keys';
import type { Secrets } from '../../src/application/ports/secrets';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { LoginFailurePolicy, LoginThrottle } from '../../src/application/ports/login-throttle';
import type { UseCases } from '../../src/application/use-cases';
import type { ModuleAuditAction } from '../../src/domain/audit-event';
import { JwtTokenService } from '../../src/adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../../src/adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../../src/adapters/crypto/random-uuid-generator';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { Storage } from '../../src/adapters/persistence/storage';
import { MemoryLoginThrottle } from '../../src/adapters/rate-limit/memory-login-throttle';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { loadConfig } from '../../src/bootstrap/config';
import { buildUseCases, type Services } from '../../src/bootstrap/wire';

/** Real scrypt with a small cost: the same code path as production, fast enough for hundreds of tests. */
export const FAST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;
export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long';

export interface TestUseCasesOptions {
  readonly storage?: Storage;
  readonly clock?: Clock;
  /** Real scrypt at FAST_SCRYPT unless given (e.g. one at older parameters). */
  readonly hasher?: PasswordHasher;
  readonly inviteTtlSeconds?: number;
  readonly inviteRequireEmailMatch?: boolean;
  /** The installed modules' audit actions, as main passes them. */
  readonly moduleAuditActions?: readonly ModuleAuditAction[];
  /** Where failed logins are counted; by default in memory, on `clock`, with `loginFailures`. */
  readonly loginThrottle?: LoginThrottle;
  /** The in-memory throttle's limit and window; the configuration's defaults (10 in 15 min) otherwise. */
  readonly loginFailures?: LoginFailurePolicy;
  /** The credential cache; by default the one buildUseCases makes over the storage. */
  readonly credentials?: CredentialStates;
  /** Where last_used_at goes; by default the throttled writer buildUseCases makes. */
  readonly keyUsage?: ApiKeyUsage;
  /** The changes the instance applies (change-feed.ts makes them with `credentials`); by default buildUseCases's own. */
  readonly credentialChanges?: CredentialChangeFeed;
  /** How far the instance follows the change log (change-feed.ts makes it with `credentials`). */
  readonly changePositions?: ChangePositions;
  /** Service keys for introspection and the change feed; by default none. */
  readonly serviceKeys?: ServiceKeyLookup;
  /** How long a verified service key is trusted; buildUseCases's default otherwise. */
  readonly serviceKeyTrustMs?: number;
  /** Randomness and digests; node:crypto's unless given (a scripted source, to make a collision happen). */
  readonly secrets?: Secrets;
}

export interface TestUseCases {
  readonly useCases: UseCases;
  readonly storage: Storage;
  readonly services: Services & { readonly loginThrottle: LoginThrottle };
}

/** The real wiring (buildUseCases) over memory storage unless another backend is given. */
export async function buildTestUseCases(options: TestUseCasesOptions = {}): Promise<TestUseCases> {
  const storage = options.storage ?? createMemoryStorage();
  const clock = options.clock ?? new SystemClock();
  const services = {
    hasher: options.hasher ?? new ScryptPasswordHasher(FAST_SCRYPT),
    tokens: new JwtTokenService(TEST_JWT_SECRET),
    ids: new RandomUuidGenerator(),
    secrets: options.secrets ?? new NodeSecrets(),
    clock,
    loginThrottle: options.loginThrottle ?? new MemoryLoginThrottle(options.loginFailures ?? loadConfig({}).loginFailures, clock),
    credentials: options.credentials,
    keyUsage: options.keyUsage,
    credentialChanges: options.credentialChanges,
    changePositions: options.changePositions,
    serviceKeys: options.serviceKeys,
  };
  const useCases = await buildUseCases(storage, services, {
    inviteTtlSeconds: options.inviteTtlSeconds ?? 604_800, inviteRequireEmailMatch: options.inviteRequireEmailMatch,
    serviceKeyTrustMs: options.serviceKeyTrustMs, moduleAuditActions: options.moduleAuditActions,
  });
  return { useCases, storage, services };
}

let counter = 0;
/** A fresh address per call, so tests never collide on the global e-mail index. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${Date.now()}-${counter}@example.com`;
}
