import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { ManageServiceKeys } from '../application/service-keys/manage-service-keys';
import type { UseCases } from '../application/use-cases';
import { MemoryServiceKeys } from '../adapters/persistence/memory/memory-service-keys';
import { assemble } from '../bootstrap/assemble';
import { type Config, DEFAULT_DEVELOPMENT_PUBLIC_URL, loadConfig } from '../bootstrap/config';
import { type OpenedStorage, openMemoryStorage } from '../bootstrap/database';
import type { PortcullisModule } from '../bootstrap/modules/portcullis-module';
import { ALL_TENANTS, namedTenants } from '../domain/service-key';
import { InsecureFastPasswordHasherForTestsOnly } from './insecure-fast-password-hasher';
import { TestClock } from './test-clock';
import { TestMailbox } from './test-mailbox';
import { type RotateSigningKeyOptions, RotatingSigningKeys, type SigningKeyIds } from './rotating-signing-keys';
import { DevelopmentMailbox } from '../adapters/mail/development-mailbox';
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
const UNLIMITED = { global: 1_000_000, login: 1_000_000, signup: 1_000_000, introspect: 1_000_000, recovery: 1_000_000, sso: 1_000_000 } as const;

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
  /** Where the service's people reach it (PUBLIC_URL): the origin the kit's passkeys answer from. */
  readonly publicUrl: string;
  readonly unexpectedErrors: unknown[];
  readonly serviceKeys: ManageServiceKeys;
  readonly mailbox: TestMailbox;
  /** Signs tokens from now on with a new key (rotating-signing-keys.ts); retiring the previous one resets the change streams. */
  readonly rotateSigningKey: (options?: RotateSigningKeyOptions) => SigningKeyIds;
  /** Resolves once every change committed so far has been applied and handed to the change streams. */
  readonly caughtUp: () => Promise<unknown>;
  /** Stops following the change log and lets go of the storage. */
  readonly close: () => Promise<void>;
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
  /** What the service sent by e-mail: password resets, verifications, invitations, notices. */
  readonly mailbox: TestMailbox;
  private readonly serviceKeys: ManageServiceKeys;
  /** The raw keys the kit made, with the id each is revoked by. */
  private readonly serviceKeyIds = new Map<string, string>();
  protected readonly caughtUp: () => Promise<unknown>;
  private readonly closeAssembly: () => Promise<void>;
  private readonly rotate: (options?: RotateSigningKeyOptions) => SigningKeyIds;

  constructor(parts: TestPortcullisParts) {
    super(parts.useCases, parts.clock, parts.publicUrl);
    this.app = parts.app;
    this.unexpectedErrors = parts.unexpectedErrors;
    this.mailbox = parts.mailbox;
    this.serviceKeys = parts.serviceKeys;
    this.caughtUp = parts.caughtUp;
    this.closeAssembly = parts.close;
    this.rotate = parts.rotateSigningKey;
  }

  /**
   * The service signs tokens with a new key (a new `kid`) from now on, as after an operator's
   * rotation (docs/operations.md, "Rotating the signing secret"). Tokens signed before still verify,
   * unless `retirePrevious`: then they are refused, and open change streams are sent `reset` (as
   * the restart that retires a key in production closes them), so a downstream forgets what it
   * remembered of them. Members log in again for a token under the new key (`login`).
   */
  rotateSigningKey(options: RotateSigningKeyOptions = {}): SigningKeyIds {
    return this.rotate(options);
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
    await this.closeAssembly();
  }
}

/**
 * Builds a test Portcullis with the production composition: assemble, the one function main builds
 * the service with (use-cases, modules with their checks, the HTTP app). What differs from
 * `npm start` is only what a test needs to differ: memory storage, the kit's clock, a random
 * signing secret, a cheap password hash, no rate limits.
 */
export async function createTestPortcullis(options: TestPortcullisOptions = {}): Promise<TestPortcullis> {
  return assembleTestPortcullis(openMemoryStorage(), options);
}

/**
 * The same assembly over storage of the caller's choice: the benchmark and the service's own tests
 * run the kit's flow on PGlite and Postgres with it. Not part of the kit's public entry point.
 */
export async function assembleTestPortcullis(storage: OpenedStorage, options: TestPortcullisOptions = {}): Promise<TestPortcullis> {
  return new TestPortcullis(await assembleParts(storage, options));
}

/** The kit's configuration: the service's defaults, with what a test must not meet (rate limits) raised. */
function kitConfig(options: TestPortcullisOptions): Config {
  const defaults = loadConfig({});
  return {
    ...defaults,
    corsOrigin: TEST_ORIGIN,
    rateLimits: UNLIMITED,
    jwtSecret: randomBytes(32).toString('hex'),
    inviteTtlSeconds: options.inviteTtlSeconds ?? defaults.inviteTtlSeconds,
    metrics: { enabled: false, port: undefined },
  };
}

/** The kit's composition, for TestPortcullis and the kit's server (test-portcullis-server.ts) alike. */
export async function assembleParts(storage: OpenedStorage, options: TestPortcullisOptions): Promise<TestPortcullisParts> {
  const clock = options.clock instanceof TestClock ? options.clock : new TestClock(options.clock);
  const unexpectedErrors: unknown[] = [];
  // The kit makes and revokes service keys itself: kept in memory beside any storage (on SQL storage
  // only the schema's owner may write them).
  const serviceKeyStore = storage.serviceKeys instanceof MemoryServiceKeys ? storage.serviceKeys : new MemoryServiceKeys();
  const box = new DevelopmentMailbox({ from: 'Portcullis <portcullis@localhost>', capacity: 1_000, now: () => clock.now() });
  const signingKeys = new RotatingSigningKeys();
  const config = kitConfig(options);
  const service = await assemble(config, {
    storage: { ...storage, serviceKeys: serviceKeyStore },
    mailer: box,
    clock,
    hasher: new InsecureFastPasswordHasherForTestsOnly(),
    tokens: signingKeys,
    modules: options.modules,
    serviceKeyTrustMs: SERVICE_KEY_TRUST_MS,
    changeHeartbeatMs: options.changeHeartbeatMs,
    onError: (error) => unexpectedErrors.push(error),
  });
  const serviceKeys = new ManageServiceKeys({ serviceKeys: serviceKeyStore, ids: service.ids, secrets: service.secrets, clock });
  return {
    app: service.listener,
    useCases: service.useCases,
    clock,
    publicUrl: config.publicUrl ?? DEFAULT_DEVELOPMENT_PUBLIC_URL,
    unexpectedErrors,
    serviceKeys,
    mailbox: new TestMailbox(box, async () => {
      await service.useCases.forgotPassword.settled();
      await service.mailWorker!.deliverAllDue();
    }),
    rotateSigningKey: (rotation) => {
      const keyIds = signingKeys.rotate(rotation);
      if (rotation?.retirePrevious) service.feed.changes.resume(service.feed.changes.position);
      return keyIds;
    },
    caughtUp: () => service.feed.positions.caughtUp(),
    close: () => service.close(),
  };
}
