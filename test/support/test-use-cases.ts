import type { ApiKeyUsage } from '../../src/application/ports/api-key-usage';
import type { DnsTxtRecords } from '../../src/application/ports/dns-txt-records';
import { InMemoryDnsTxtRecords } from '../../src/adapters/dns/in-memory-dns-txt-records';
import type { CommonPasswords } from '../../src/application/ports/common-passwords';
import type { Clock } from '../../src/application/ports/clock';
import type { ServiceKeyLookup } from '../../src/application/ports/service-keys';
import type { Secrets } from '../../src/application/ports/secrets';
import type { PasswordHasher } from '../../src/application/ports/password-hasher';
import type { LoginFailurePolicy, LoginThrottle } from '../../src/application/ports/login-throttle';
import type { TokenService } from '../../src/application/ports/token-service';
import type { UseCases } from '../../src/application/use-cases';
import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher';
import type { Storage } from '../../src/adapters/persistence/storage';
import { type Assembly, type AssemblyParts, assemble } from '../../src/bootstrap/assemble';
import { type Config, loadConfig } from '../../src/bootstrap/config';
import { type OpenedStorage, openMemoryStorage } from '../../src/bootstrap/database';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import type { PasswordPolicyName } from '../../src/domain/password-policy';

/** Real scrypt with a small cost: the same code path as production, fast enough for hundreds of tests. */
export const FAST_SCRYPT = { N: 1024, r: 8, p: 1 } as const;
export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long';

export interface TestUseCasesOptions {
  /** Memory storage (a fresh one unless given: a wrapped or inspectable one, say). */
  readonly storage?: Storage;
  /** Storage opened as the service opens it (PGlite, Postgres), instead of memory. */
  readonly opened?: OpenedStorage;
  readonly clock?: Clock;
  /** Real scrypt at FAST_SCRYPT unless given (e.g. one at older parameters). */
  readonly hasher?: PasswordHasher;
  readonly inviteTtlSeconds?: number;
  readonly inviteRequireEmailMatch?: boolean;
  /** PASSWORD_POLICY; the configuration's default unless given. */
  readonly passwordPolicy?: PasswordPolicyName;
  /** The strict policy's list; the one shipped with the service unless given. */
  readonly commonPasswords?: CommonPasswords;
  /** Product modules served after identity, as main serves them. */
  readonly modules?: readonly PortcullisModule[];
  /** Where failed logins are counted; by default in memory, on `clock`, with `loginFailures`. */
  readonly loginThrottle?: LoginThrottle;
  /** The in-memory throttle's limit and window; the configuration's defaults (10 in 15 min) otherwise. */
  readonly loginFailures?: LoginFailurePolicy;
  /** Where last_used_at goes; by default the batched writer assemble makes. */
  readonly keyUsage?: ApiKeyUsage;
  /** Service keys for introspection and the change feed; by default the storage's (none in memory until made). */
  readonly serviceKeys?: ServiceKeyLookup;
  /** How long a verified service key is trusted; the service's default otherwise. */
  readonly serviceKeyTrustMs?: number;
  /** Randomness and digests; node:crypto's unless given (a scripted source, to make a collision happen). */
  readonly secrets?: Secrets;
  /** Where domains' TXT records are read; none are published unless given. */
  readonly dns?: DnsTxtRecords;
}

export interface TestUseCases {
  readonly useCases: UseCases;
  readonly storage: Storage;
  readonly services: { readonly tokens: TokenService; readonly secrets: Secrets; readonly clock: Clock };
  /** Everything assemble made: the credential feed, key usage, the listener. */
  readonly assembly: Assembly;
}

/** The service's configuration for tests: its defaults, a fixed signing secret, no metrics unless asked. */
export function testConfig(options: TestUseCasesOptions = {}, overrides: Partial<Config> = {}): Config {
  const defaults = loadConfig({});
  return {
    ...defaults,
    jwtSecret: TEST_JWT_SECRET,
    inviteTtlSeconds: options.inviteTtlSeconds ?? defaults.inviteTtlSeconds,
    inviteRequireEmailMatch: options.inviteRequireEmailMatch ?? false,
    passwordPolicy: options.passwordPolicy ?? defaults.passwordPolicy,
    loginFailures: options.loginFailures ?? defaults.loginFailures,
    metrics: { enabled: false, port: undefined },
    // Test providers (test/support/oidc-test-provider.ts) are served over http on 127.0.0.1.
    sso: { allowHttpIssuer: true },
    ...overrides,
  };
}

/** Assembled by the service's own composition root (assemble) over memory storage unless other storage is given. */
export async function assembleForTest(options: TestUseCasesOptions = {}, config: Config = testConfig(options), parts: AssemblyParts = {}): Promise<Assembly> {
  const opened = options.opened ?? openMemoryStorage(options.storage);
  return assemble(config, {
    storage: options.serviceKeys ? { ...opened, serviceKeys: options.serviceKeys } : opened,
    clock: options.clock,
    hasher: options.hasher ?? new ScryptPasswordHasher(FAST_SCRYPT),
    commonPasswords: options.commonPasswords,
    secrets: options.secrets,
    loginThrottle: options.loginThrottle,
    keyUsage: options.keyUsage,
    serviceKeyTrustMs: options.serviceKeyTrustMs,
    modules: options.modules,
    dnsTxtRecords: options.dns ?? new InMemoryDnsTxtRecords(),
    ...parts,
  });
}

export async function buildTestUseCases(options: TestUseCasesOptions = {}): Promise<TestUseCases> {
  const assembly = await assembleForTest(options);
  return {
    useCases: assembly.useCases,
    storage: assembly.storage.storage,
    services: { tokens: assembly.tokens, secrets: assembly.secrets, clock: assembly.clock },
    assembly,
  };
}

let counter = 0;
/** A fresh address per call, so tests never collide on the global e-mail index. */
export function uniqueEmail(label = 'user'): string {
  counter += 1;
  return `${label}-${process.pid}-${Date.now()}-${counter}@example.com`;
}
