import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { openServingPglite, openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { kyselyModuleStore } from '../../src/adapters/persistence/modules/kysely-module-store';
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
  const migrations = moduleMigrationsOf(modules);
  const opened = database === 'pglite'
    ? await openServingPglite('memory://', migrations)
    : await openServingPostgres(database.postgres, { max: 10, modules: migrations });
  return assembleTestPortcullis(createKyselyStorage(opened, opened.close), kyselyModuleStore(opened), { modules });
}
