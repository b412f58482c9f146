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
import { KyselyServiceKeyRepository } from '../../src/adapters/persistence/kysely/service-key-repository';
import type { Clock } from '../../src/application/ports/clock';

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
  readonly clock?: Clock;
  /** How often an idle change stream carries a heartbeat; the app's default otherwise. */
  readonly changeHeartbeatMs?: number;
}

/**
 * The service's real wiring and HTTP app over a database opened as the service opens it (PGlite or
 * Postgres). Each call is one instance: its own pool, credential cache and change listener.
 */
export async function databaseApp(database: 'pglite' | { postgres: string }, options: DatabaseAppOptions = {}): Promise<DatabaseApp> {
  let opened: ServingDatabase;
  if (database === 'pglite') {
    assertPgliteCanLoadInJest();
    opened = await openServingPglite('memory://');
  } else {
    opened = await openServingPostgres(database.postgres, { max: 20 });
  }
  const storage = createKyselyStorage(opened.db, opened.close);
  const listenTo = database !== 'pglite' && options.changeFeed !== false ? database.postgres : undefined;
  const feed = await openCredentialFeed(listenTo, storage, () => undefined, { retryMs: 100, heartbeatMs: 1_000 });
  const { useCases } = await buildTestUseCases({
    storage, credentials: feed.credentials, credentialChanges: feed.changes, serviceKeys: new KyselyServiceKeyRepository(opened.db), clock: options.clock,
  });
  const app = createApp(useCases, { corsOrigin: 'http://localhost:5173', rateLimits: GENEROUS_LIMITS }, {
    onError: () => undefined, changeHeartbeatMs: options.changeHeartbeatMs,
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
