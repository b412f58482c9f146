import type { RequestListener } from 'node:http';
import type { Kysely } from 'kysely';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import type { ChangePositions } from '../../src/application/ports/change-positions';
import type { Clock } from '../../src/application/ports/clock';
import type { Repositories } from '../../src/application/ports/repositories';
import { moduleMigrationsOf } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import type { PasswordPolicyName } from '../../src/domain/password-policy';
import { ownerView } from './owner-view';
import { assembleForTest, testConfig } from './test-use-cases';
import { openTestStorage, type TestDatabase } from './test-storage';
import type { OpenedStorage } from '../../src/bootstrap/database';
import type { DnsTxtRecords } from '../../src/application/ports/dns-txt-records';

export interface DatabaseApp {
  readonly app: RequestListener;
  /**
   * Direct access as the schema's owner, outside the tenant walls: only to check invariants or
   * set up states no endpoint reaches. The app itself works as the walled app role.
   */
  readonly db: Kysely<DB>;
  /** The repositories as the app uses them, inside the tenant walls: for states no endpoint of this branch reaches. */
  readonly repos: Repositories;
  /** The instance's change position: how far it has followed the change log. */
  readonly positions: ChangePositions & { caughtUp(): Promise<number> };
  /** Writes the API keys' uses gathered so far, as the instance does when its interval is over. */
  flushKeyUsage(): Promise<void>;
  /**
   * Delivers everything due in the outbox to the development mailbox now, as main's polling worker
   * would, once the reset requests taken so far have done their work.
   */
  deliverMail(): Promise<void>;
  close(): Promise<void>;
}

const TEST_FRESHNESS_TIMEOUT_MS = 10_000;

const GENEROUS_LIMITS = { global: 100_000, login: 100_000, signup: 100_000, recovery: 100_000, sso: 100_000 };

export interface DatabaseAppOptions {
  /**
   * main listens for the database's credential-change announcements and, on Postgres, confirms
   * freshness on every credential check; so does this app unless told not to (false: neither, to
   * show what an instance that does not follow the database would keep serving).
   */
  readonly changeFeed?: boolean;
  /**
   * False: no listener, so no notification is ever heard, but every credential check still
   * confirms freshness (to show the check alone keeps an instance exact).
   */
  readonly notifications?: boolean;
  /**
   * FRESHNESS_TIMEOUT_MS. Unset: TEST_FRESHNESS_TIMEOUT_MS, so that a test machine busy with other
   * suites is not taken for a database that does not answer; tests of the bound set their own.
   */
  readonly freshnessTimeoutMs?: number;
  readonly clock?: Clock;
  /** How often an idle change stream carries a heartbeat; the app's default otherwise. */
  readonly changeHeartbeatMs?: number;
  /** Product modules served after identity, their migrations applied after identity's. */
  readonly modules?: readonly PortcullisModule[];
  /** PASSWORD_POLICY; the configuration's default unless given. */
  readonly passwordPolicy?: PasswordPolicyName;
  /** Where e-mailed links point (PUBLIC_URL); unset, the development default. */
  readonly publicUrl?: string;
  /** How the instance's listening connection shows in pg_stat_activity, for a test that cuts it alone. */
  readonly listenerName?: string;
  /** Where domains' TXT records are read; none are published unless given. */
  readonly dns?: DnsTxtRecords;
}

function followed(opened: OpenedStorage, options: DatabaseAppOptions): OpenedStorage {
  if (options.changeFeed === false) return { ...opened, listenForChanges: undefined, shared: false };
  return options.notifications === false ? { ...opened, listenForChanges: undefined } : opened;
}

/**
 * The service assembled as main assembles it (assemble), over a database opened as the service opens
 * it (PGlite or Postgres). Each call is one instance: its own pool, credential cache and change listener.
 */
export async function databaseApp(
  database: TestDatabase,
  options: DatabaseAppOptions = {},
): Promise<DatabaseApp> {
  const modules = options.modules ?? [];
  // A least-privileged serving login cannot be the owner again: the owner's view is a pool of its own.
  const ownerPool = database !== 'pglite' && database.servingLogin ? openPostgres(database.postgres, { max: 2 }) : undefined;
  const opened = await openTestStorage(database, moduleMigrationsOf(modules), 20);
  const assembly = await assembleForTest(
    { opened: followed(opened, options), clock: options.clock, modules, dns: options.dns },
    testConfig({ passwordPolicy: options.passwordPolicy }, {
      freshnessTimeoutMs: options.freshnessTimeoutMs ?? TEST_FRESHNESS_TIMEOUT_MS,
      corsOrigin: 'http://localhost:5173',
      rateLimits: { ...GENEROUS_LIMITS, introspect: 100_000 },
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    }),
    { onError: () => undefined, onBackgroundError: () => undefined, changeHeartbeatMs: options.changeHeartbeatMs, listenerTiming: { retryMs: 100, heartbeatMs: 1_000, applicationName: options.listenerName } },
  );
  const owner = ownerPool?.db ?? ownerView(opened.db!);
  return {
    app: assembly.listener,
    db: owner,
    repos: assembly.storage.storage.repos,
    positions: assembly.feed.positions,
    flushKeyUsage: async () => assembly.keyUsage.flush?.(),
    deliverMail: async () => {
      await assembly.useCases.forgotPassword.settled();
      await assembly.mailWorker?.deliverAllDue();
    },
    close: async () => {
      await assembly.close();
      await ownerPool?.close();
    },
  };
}
