import type { Express } from 'express';
import type { Kysely } from 'kysely';
import { createApp } from '../../src/adapters/http/app';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/kysely-storage';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPglite, openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/serving-database';
import { ownerView } from './owner-view';
import { assertPgliteCanLoadInJest } from './pglite';
import { buildTestUseCases } from './test-use-cases';

export interface DatabaseApp {
  readonly app: Express;
  /**
   * Direct access as the schema's owner, outside the tenant walls: only to check invariants or
   * set up states no endpoint reaches. The app itself works as the walled app role.
   */
  readonly db: Kysely<DB>;
  close(): Promise<void>;
}

const GENEROUS_LIMITS = { global: 100_000, login: 100_000, signup: 100_000 };

/** The service's real wiring and HTTP app over a database opened as the service opens it (PGlite or Postgres). */
export async function databaseApp(database: 'pglite' | { postgres: string }): Promise<DatabaseApp> {
  let opened: ServingDatabase;
  if (database === 'pglite') {
    assertPgliteCanLoadInJest();
    opened = await openServingPglite('memory://');
  } else {
    opened = await openServingPostgres(database.postgres, { max: 20 });
  }
  const { useCases } = await buildTestUseCases({ storage: createKyselyStorage(opened.db, opened.close) });
  const app = createApp(useCases, { corsOrigin: 'http://localhost:5173', rateLimits: GENEROUS_LIMITS }, () => undefined);
  const owner = ownerView(opened.db);
  return { app, db: owner, close: opened.close };
}
