import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { AuditTrail } from '../application/audit/audit-trail';
import { ManageServiceKeys } from '../application/service-keys/manage-service-keys';
import type { UseCases } from '../application/use-cases';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { createApp } from '../adapters/http/app';
import { MemoryChangeLog } from '../adapters/persistence/memory/memory-change-log';
import { MemoryServiceKeys } from '../adapters/persistence/memory/memory-service-keys';
import { createMemoryStorage } from '../adapters/persistence/memory/memory-storage';
import { memoryModuleStore } from '../adapters/persistence/modules/memory-module-store';
import type { ModuleStore } from '../adapters/persistence/modules/module-store';
import type { Storage } from '../adapters/persistence/storage';
import { MemoryLoginThrottle } from '../adapters/rate-limit/memory-login-throttle';
import { localCredentialFeed } from '../bootstrap/change-feed';
import { loadConfig } from '../bootstrap/config';
import { composeModules } from '../bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../bootstrap/modules/portcullis-module';
import { buildUseCases } from '../bootstrap/wire';
import { ALL_TENANTS, namedTenants } from '../domain/service-key';
import { InsecureFastPasswordHasherForTestsOnly } from './insecure-fast-password-hasher';
import { TestClock } from './test-clock';
import { TestWorld } from './world';

export interface TestPortcullisOptions {
  /** The product modules to serve after identity, as main(modules) serves them. */
  readonly modules?: readonly PortcullisModule[];
  /** The kit's clock, or the instant it starts at; a TestClock at the current time when unset. */
  readonly clock?: TestClock | Date;
  /** How long an invite stays pending; the service's default (7 days) when unset. */
  readonly inviteTtlSeconds?: number;
  /**
   * How often an idle change stream (GET /api/v1/auth/changes) carries a heartbeat, and checks its
   * service key again; the service's 15 seconds when unset.
   */
  readonly changeHeartbeatMs?: number;
}

/** High enough that no test meets a rate limit by accident. */
const UNLIMITED = { global: 1_000_000, login: 1_000_000, signup: 1_000_000, introspect: 1_000_000 } as const;

/**
 * The service trusts a verified service key for 5 seconds on its clock, and the kit's clock stands
 * still: the kit reads its (memory) service keys on every call instead, so a revoked key is refused
 * at the next introspection.
 */
const SERVICE_KEY_TRUST_MS = 0;

/** What a TestPortcullis is made of: assembleTestPortcullis's work, handed to the constructor. */
export interface TestPortcullisParts {
  readonly app: RequestListener;
  readonly useCases: UseCases;
  readonly clock: TestClock;
  readonly unexpectedErrors: unknown[];
  readonly storage: Storage;
  readonly serviceKeys: ManageServiceKeys;
  /** Resolves once every change committed so far has been applied and handed to the change streams. */
  readonly caughtUp: () => Promise<unknown>;
  /** Stops following the change log. */
  readonly stopFollowing: () => Promise<void>;
}

export interface ServiceKeyOptions {
  /** The tenants the key may ask about and hear of; every tenant when unset. */
  readonly tenants?: readonly string[];
}

/** Any origin will do: supertest sends none, and the CORS policy is tested in the service's own suite. */
const TEST_ORIGIN = 'http://localhost';

/**
 * Portcullis in the test's own process: identity and the modules given, on memory storage, behind
 * the same authentication, role checks, tenant walls, error answers and audit trail as the service.
 * `app` is a Node request listener: hand it to supertest, or to http.createServer.
 */
export class TestPortcullis extends TestWorld {
  readonly app: RequestListener;
  /** Errors the app answered with a 500 or 503: a test may assert it stays empty. */
  readonly unexpectedErrors: unknown[];
  private readonly storage: Storage;
  private readonly serviceKeys: ManageServiceKeys;
  /** The raw keys the kit made, with the id each is revoked by. */
  private readonly serviceKeyIds = new Map<string, string>();
  protected readonly caughtUp: () => Promise<unknown>;
  private readonly stopFollowing: () => Promise<void>;

  constructor(parts: TestPortcullisParts) {
    super(parts.useCases, parts.clock);
    this.app = parts.app;
    this.unexpectedErrors = parts.unexpectedErrors;
    this.storage = parts.storage;
    this.serviceKeys = parts.serviceKeys;
    this.caughtUp = parts.caughtUp;
    this.stopFollowing = parts.stopFollowing;
  }

  /**
   * A raw service key (what `npm run service-key -- create <name> --all-tenants` prints, or with
   * `tenants`, `--tenant <id> ...`): introspection and the change stream accept it until
   * `revokeServiceKey`. Names are unique among keys in use.
   */
  async serviceKey(name = `downstream-${this.serviceKeyIds.size + 1}`, options: ServiceKeyOptions = {}): Promise<string> {
    const scope = options.tenants === undefined ? ALL_TENANTS : namedTenants(options.tenants);
    const { key, rawKey } = await this.serviceKeys.create(name, scope);
    this.serviceKeyIds.set(rawKey, key.id);
    return rawKey;
  }

  /**
   * Revokes a service key the kit made, as an operator would: its introspections are answered 401
   * from now on, and its open change streams are sent `reset` and closed.
   */
  async revokeServiceKey(rawKey: string): Promise<void> {
    const id = this.serviceKeyIds.get(rawKey);
    if (id === undefined || !(await this.serviceKeys.revoke(id))) throw new Error('not a service key of this kit in use: make it with serviceKey()');
    await this.caughtUp();
  }

  /** Stops following the change log and lets go of the storage. */
  async close(): Promise<void> {
    await this.stopFollowing();
    await this.storage.close();
  }
}

/**
 * Builds a test Portcullis with the production composition: buildUseCases (the one function main
 * builds every use-case with), composeModules (how main mounts the modules, with their checks), and
 * createApp (main's HTTP app). What differs from `npm start` is only what a test needs to differ:
 * memory storage, the kit's clock, a random signing secret, a cheap password hash, no rate limits.
 */
export async function createTestPortcullis(options: TestPortcullisOptions = {}): Promise<TestPortcullis> {
  const storage = createMemoryStorage();
  return assembleTestPortcullis(storage, memoryModuleStore(storage.unitOfWork), options);
}

/**
 * The same assembly over a storage backend of the caller's choice: the benchmark runs the kit's
 * flow on PGlite and Postgres with it. Not part of the kit's public entry point.
 */
export async function assembleTestPortcullis(storage: Storage, moduleStore: ModuleStore, options: TestPortcullisOptions = {}): Promise<TestPortcullis> {
  return new TestPortcullis(await assembleParts(storage, moduleStore, options));
}

/** The kit's composition, for TestPortcullis and the kit's server (test-portcullis-server.ts) alike. */
export async function assembleParts(storage: Storage, moduleStore: ModuleStore, options: TestPortcullisOptions): Promise<TestPortcullisParts> {
  const clock = options.clock instanceof TestClock ? options.clock : new TestClock(options.clock);
  const defaults = loadConfig({});
  const ids = new RandomUuidGenerator();
  const secrets = new NodeSecrets();
  // Memory storage logs service key revocations in its own change log, as the database's trigger does.
  const serviceKeyStore = new MemoryServiceKeys(storage.changeLog instanceof MemoryChangeLog ? storage.changeLog : undefined);
  const feed = await localCredentialFeed(storage);
  const useCases = await buildUseCases(storage, {
    hasher: new InsecureFastPasswordHasherForTestsOnly(),
    tokens: new JwtTokenService(randomBytes(32).toString('hex')),
    ids,
    secrets,
    clock,
    loginThrottle: new MemoryLoginThrottle(defaults.loginFailures, clock),
    serviceKeys: serviceKeyStore,
    credentials: feed.credentials,
    credentialChanges: feed.changes,
    changePositions: feed.positions,
  }, {
    serviceKeyTrustMs: SERVICE_KEY_TRUST_MS,
    inviteTtlSeconds: options.inviteTtlSeconds ?? defaults.inviteTtlSeconds,
    moduleAuditActions: (options.modules ?? []).flatMap((module) => module.auditActions ?? []),
  });
  const composed = await composeModules(options.modules ?? [], { store: moduleStore, clock, ids, trail: new AuditTrail({ ids, clock }) });
  const unexpectedErrors: unknown[] = [];
  const app = createApp(useCases, { corsOrigin: TEST_ORIGIN, rateLimits: UNLIMITED }, {
    onError: (error) => unexpectedErrors.push(error),
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
    changeHeartbeatMs: options.changeHeartbeatMs,
  });
  const serviceKeys = new ManageServiceKeys({ serviceKeys: serviceKeyStore, ids, secrets, clock });
  return {
    app, useCases, clock, unexpectedErrors, storage, serviceKeys, caughtUp: () => feed.positions.caughtUp(), stopFollowing: () => feed.close(),
  };
}
