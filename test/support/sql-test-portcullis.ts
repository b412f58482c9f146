import { openStorage } from '../../src/bootstrap/database';
import { moduleMigrationsOf } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { assembleTestPortcullis } from '../../src/testing/create-test-portcullis';
import type { TestPortcullis } from '../../src/testing';

/**
 * The test kit's Portcullis and helpers over a database opened as the service opens it (migrated as
 * the owner, serving as the walled app role): for the suites that run the same cases on memory,
 * PGlite and Postgres. close() closes the database. On PGlite, call assertPgliteCanLoadInJest first.
 */
export async function sqlTestPortcullis(database: 'pglite' | { postgres: string }, modules: readonly PortcullisModule[] = []): Promise<TestPortcullis> {
  const opened = await openStorage(
    database === 'pglite'
      ? { databaseUrl: undefined, pgliteDir: 'memory://' }
      : { databaseUrl: database.postgres, pgliteDir: '', database: { poolMax: 10, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000 } },
    undefined,
    moduleMigrationsOf(modules),
  );
  return assembleTestPortcullis(opened, { modules });
}
