import type { Express } from 'express';
import { createApp } from '../../src/adapters/http/app';
import { openPglite, openPostgres, type OpenDatabase } from '../../src/adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/kysely-storage';
import { migrateToLatest } from '../../src/adapters/persistence/kysely/migrate';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import type { Kysely } from 'kysely';
import { assertPgliteCanLoadInJest } from './pglite';
import { buildTestUseCases } from './test-use-cases';

export interface DatabaseApp {
  readonly app: Express;
  /** Direct access, only to check invariants or set up states no endpoint reaches. */
  readonly db: Kysely<DB>;
  close(): Promise<void>;
}

const GENEROUS_LIMITS = { global: 100_000, login: 100_000, signup: 100_000 };

/** The service's real wiring and HTTP app over a migrated Kysely database (PGlite or Postgres). */
export async function databaseApp(database: 'pglite' | { postgres: string }): Promise<DatabaseApp> {
  let opened: OpenDatabase;
  if (database === 'pglite') {
    assertPgliteCanLoadInJest();
    opened = await openPglite('memory://');
  } else {
    opened = openPostgres(database.postgres, { max: 20 });
  }
  await migrateToLatest(opened.db);
  const { useCases } = await buildTestUseCases({ storage: createKyselyStorage(opened.db, opened.close) });
  const app = createApp(useCases, { corsOrigin: 'http://localhost:5173', rateLimits: GENEROUS_LIMITS }, () => undefined);
  return { app, db: opened.db, close: opened.close };
}
