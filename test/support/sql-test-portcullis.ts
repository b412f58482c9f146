import { openTestStorage, type TestDatabase } from './test-storage';
import { moduleMigrationsOf } from '../../src/bootstrap/modules/compose-modules';
import type { PortcullisModule } from '../../src/bootstrap/modules/portcullis-module';
import { assembleTestPortcullis } from '../../src/testing/create-test-portcullis';
import type { TestPortcullis } from '../../src/testing';

/**
 * The test kit's Portcullis and helpers over a database opened as the service opens it (migrated as
 * the owner, serving as the walled app role): for the suites that run the same cases on memory,
 * PGlite and Postgres. close() closes the database.
 */
export async function sqlTestPortcullis(database: TestDatabase, modules: readonly PortcullisModule[] = []): Promise<TestPortcullis> {
  const opened = await openTestStorage(database, moduleMigrationsOf(modules));
  return assembleTestPortcullis(opened, { modules });
}
