import type { RequestListener } from 'node:http';
import type { Kysely } from 'kysely';
import { createApp } from '../../src/adapters/http/app';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/kysely-storage';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPglite, openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/serving-database';
import { ownerView } from './owner-view';
import { assertPgliteCanLoadInJest } from './pglite';
import { openCredentialFeed } from '../../src/bootstrap/change-feed';
import { buildTestUseCases } from './test-use-cases';
import { AuditTrail } from '../../src/application/audit-trail';
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
  close(): Promise<void>;
}

const GENEROUS_LIMITS = { global: 100_000, login: 100_000, signup: 100_000 };

export interface DatabaseAppOptions {
  /**
   * On Postgres, main listens for other instances' credential changes; so does this app unless
   * told not to (to show what an instance that does not listen would keep serving).
   */
  readonly changeFeed?: boolean;
  /** Product modules served after identity, their migrations applied after identity's. */
  readonly modules?: readonly PortcullisModule[];
}

/**
 * The service's real wiring and HTTP app over a database opened as the service opens it (PGlite or
 * Postgres). Each call is one instance: its own pool, credential cache and change listener.
 */
export async function databaseApp(database: 'pglite' | { postgres: string }, options: DatabaseAppOptions = {}): Promise<DatabaseApp> {
  const modules = options.modules ?? [];
  let opened: ServingDatabase;
  if (database === 'pglite') {
    assertPgliteCanLoadInJest();
    opened = await openServingPglite('memory://', moduleMigrationsOf(modules));
  } else {
    opened = await openServingPostgres(database.postgres, { max: 20, modules: moduleMigrationsOf(modules) });
  }
  const storage = createKyselyStorage(opened.db, opened.close);
  const listenTo = database !== 'pglite' && options.changeFeed !== false ? database.postgres : undefined;
  const feed = await openCredentialFeed(listenTo, storage, () => undefined, { retryMs: 100, heartbeatMs: 1_000 });
  const { useCases, services: { clock, ids } } = await buildTestUseCases({
    storage, credentials: feed.credentials, moduleAuditActions: modules.flatMap((module) => module.auditActions ?? []),
  });
  const composed = await composeModules(modules, { store: kyselyModuleStore(opened.db), clock, ids, trail: new AuditTrail({ ids, clock }) });
  const app = createApp(useCases, { corsOrigin: 'http://localhost:5173', rateLimits: GENEROUS_LIMITS }, {
    onError: () => undefined,
    modules: composed.http,
    apiReferenceJson: composed.apiReferenceJson,
  });
  const owner = ownerView(opened.db);
  return {
    app,
    db: owner,
    close: async () => {
      await feed.close();
      await opened.close();
    },
  };
}
