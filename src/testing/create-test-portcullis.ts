import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { AuditTrail } from '../application/audit/audit-trail';
import { JwtTokenService } from '../adapters/crypto/jwt-token-service';
import { NodeSecrets } from '../adapters/crypto/node-secrets';
import { RandomUuidGenerator } from '../adapters/crypto/random-uuid-generator';
import { createApp } from '../adapters/http/app';
import { createMemoryStorage } from '../adapters/persistence/memory/memory-storage';
import { memoryModuleStore } from '../adapters/persistence/modules/memory-module-store';
import type { ModuleStore } from '../adapters/persistence/modules/module-store';
import type { Storage } from '../adapters/persistence/storage';
import { MemoryLoginThrottle } from '../adapters/rate-limit/memory-login-throttle';
import { loadConfig } from '../bootstrap/config';
import { composeModules } from '../bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../bootstrap/modules/portcullis-module';
import { buildUseCases } from '../bootstrap/wire';
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
}

/** High enough that no test meets a rate limit by accident. */
const UNLIMITED = { global: 1_000_000, login: 1_000_000, signup: 1_000_000 } as const;

/** Any origin will do: supertest sends none, and the CORS policy is tested in the service's own suite. */
const TEST_ORIGIN = 'http://localhost';

/**
 * Portcullis in the test's own process: identity and the modules given, on memory storage, behind
 * the same authentication, role checks, tenant walls, error answers and audit trail as the service.
 * `app` is a Node request listener: hand it to supertest, or to http.createServer.
 */
export class TestPortcullis extends TestWorld {
  constructor(
    readonly app: RequestListener,
    world: ConstructorParameters<typeof TestWorld>[0],
    clock: TestClock,
    /** Errors the app answered with a 500 or 503: a test may assert it stays empty. */
    readonly unexpectedErrors: unknown[],
    private readonly storage: Storage,
  ) {
    super(world, clock);
  }

  /** Lets go of the storage (nothing to do on memory; kept so a test's afterAll reads the same everywhere). */
  async close(): Promise<void> {
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
  const clock = options.clock instanceof TestClock ? options.clock : new TestClock(options.clock);
  const defaults = loadConfig({});
  const ids = new RandomUuidGenerator();
  const useCases = await buildUseCases(storage, {
    hasher: new InsecureFastPasswordHasherForTestsOnly(),
    tokens: new JwtTokenService(randomBytes(32).toString('hex')),
    ids,
    secrets: new NodeSecrets(),
    clock,
    loginThrottle: new MemoryLoginThrottle(defaults.loginFailures, clock),
  }, {
    inviteTtlSeconds: options.inviteTtlSeconds ?? defaults.inviteTtlSeconds,
    moduleAuditActions: (options.modules ?? []).flatMap((module) => module.auditActions ?? []),
  });
  const composed = await composeModules(options.modules ?? [], { store: moduleStore, clock, ids, trail: new AuditTrail({ ids, clock }) });
  const unexpectedErrors: unknown[] = [];
  const app = createApp(useCases, { corsOrigin: TEST_ORIGIN, rateLimits: UNLIMITED }, {
    onError: (error) => unexpectedErrors.push(error),
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
  });
  return new TestPortcullis(app, useCases, clock, unexpectedErrors, storage);
}
