import type { RequestListener } from 'node:http';
import type { Kysely } from 'kysely';
import { BatchedApiKeyUsage } from '../../src/adapters/cache/batched-api-key-usage';
import { createApp } from '../../src/adapters/http/app';
import { openPostgres, type OpenDatabase } from '../../src/adapters/persistence/kysely/driver/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPglite, openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { SystemClock } from '../../src/adapters/time/system-clock';
import { ownerView } from './owner-view';
import { assertPgliteCanLoadInJest } from './pglite';
import { openCredentialFeed } from '../../src/bootstrap/change-feed';
import { changeListenerFor } from '../../src/bootstrap/database';
import { buildTestUseCases } from './test-use-cases';
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/repositories/service-key-repository';
import type { ChangePositions } from '../../src/application/ports/change-positions';
import type { Clock } from '../../src/application/ports/clock';
import { AuditTrail } from '../../src/application/audit/audit-trail';
import { kyselyModuleStore } from '../../src/adapters/persistence/modules/kysely-module-store';
import { composeModules, moduleMigrationsOf } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';

export interface DatabaseApp {
  readonly app: RequestListener;
  /**
   * Direct access as the schema's owner, outside the tenant walls: only to check invariants or
   * set up states no endpoint reaches. The app itself works as the walled app role.
   */
  readonly db: Kysely<DB>;
  /** The instance's change position: how far it has followed the change log. */
  readonly positions: ChangePositions & { caughtUp(): Promise<number> };
  /** Writes the API keys' uses gathered so far, as the instance does when its interval is over. */
  flushKeyUsage(): Promise<void>;
  close(): Promise<void>;
}

const GENEROUS_LIMITS = { global: 100_000, login: 100_000, signup: 100_000 };

export interface DatabaseAppOptions {
  /**
   * main listens for the database's credential-change announcements; so does this app unless told
   * not to (to show what an instance that does not listen would keep serving).
   */
  readonly changeFeed?: boolean;
  readonly clock?: Clock;
  /** How often an idle change stream carries a heartbeat; the app's default otherwise. */
  readonly changeHeartbeatMs?: number;
  /** Product modules served after identity, their migrations applied after identity's. */
  readonly modules?: readonly PortcullisModule[];
}

/**
 * The service's real wiring and HTTP app over a database opened as the service opens it (PGlite or
 * Postgres). Each call is one instance: its own pool, credential cache and change listener.
 */
export async function databaseApp(
  database: 'pglite' | { postgres: string; servingLogin?: string },
  options: DatabaseAppOptions = {},
): Promise<DatabaseApp> {
  const modules = options.modules ?? [];
  let opened: ServingDatabase;
  // A least-privileged serving login cannot be the owner again: the owner's view is a pool of its own.
  let ownerPool: OpenDatabase | undefined;
  if (database === 'pglite') {
    assertPgliteCanLoadInJest();
    opened = await openServingPglite('memory://', moduleMigrationsOf(modules));
  } else if (database.servingLogin) {
    opened = await openServingPostgres(database.servingLogin, { max: 20, migrationUrl: database.postgres, modules: moduleMigrationsOf(modules) });
    ownerPool = openPostgres(database.postgres, { max: 2 });
  } else {
    opened = await openServingPostgres(database.postgres, { max: 20, modules: moduleMigrationsOf(modules) });
  }
  const storage = createKyselyStorage(opened, opened.close);
  const listenTo = database === 'pglite' ? undefined : database.servingLogin ?? database.postgres;
  const listen = options.changeFeed === false ? undefined : changeListenerFor(listenTo, opened);
  const feed = await openCredentialFeed(listen, storage, () => undefined, { retryMs: 100, heartbeatMs: 1_000 });
  // As main: key usage written in batches, and what is gathered written before the database closes.
  const keyUsage = new BatchedApiKeyUsage(storage.repos.apiKeys, new SystemClock(), () => undefined);
  const { useCases, services: { clock, ids } } = await buildTestUseCases({
    storage, credentials: feed.credentials, keyUsage, credentialChanges: feed.changes, changePositions: feed.positions,
    serviceKeys: new KyselyServiceKeyRepository(opened.db), clock: options.clock,
    moduleAuditActions: modules.flatMap((module) => module.auditActions ?? []),
  });
  const composed = await composeModules(modules, { store: kyselyModuleStore(opened), clock, ids, trail: new AuditTrail({ ids, clock }) });
  const app = createApp(useCases, { corsOrigin: 'http://localhost:5173', rateLimits: GENEROUS_LIMITS }, {
    onError: () => undefined,
    changeHeartbeatMs: options.changeHeartbeatMs,
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
  });
  const owner = ownerPool?.db ?? ownerView(opened.db);
  return {
    app,
    db: owner,
    positions: feed.positions,
    flushKeyUsage: () => keyUsage.flush(),
    close: async () => {
      await keyUsage.close();
      await feed.close();
      await opened.close();
      await ownerPool?.close();
    },
  };
}
