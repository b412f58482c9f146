import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vm from 'node:vm';
import { openPglite } from '../../src/adapters/persistence/kysely/driver/dialects';
import { openServingPglite, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { migrateAll, type ModuleMigrations } from '../../src/adapters/persistence/modules/module-migrations';

/**
 * PGlite's CommonJS build loads Node built-ins with dynamic import(). Inside Jest's sandbox that
 * works only when Node runs with --experimental-vm-modules; without it the import rejects outside
 * any promise chain and takes the whole Jest worker down. Checking first turns that into a clear
 * failure of one test file. (Plain Node, e.g. the service from dist/, needs no flag.)
 */
export function assertPgliteCanLoadInJest(): void {
  if (typeof (vm as { SyntheticModule?: unknown }).SyntheticModule !== 'function') {
    throw new Error(
      'PGlite needs Jest to run under Node with --experimental-vm-modules ' +
        '(e.g. NODE_OPTIONS=--experimental-vm-modules npx jest)',
    );
  }
}

let inThisFile: Promise<Blob> | undefined;

/**
 * An embedded database with identity's migrations applied, as a dump a new one starts from
 * (`pgliteFrom`): loading it takes a fraction of an empty cluster's initialisation plus the
 * migrations, which every PGlite test would otherwise pay. It is made once per Jest run, by the
 * first test that asks, in the folder jest.global-setup.js names (a run's own, so it always holds
 * this checkout's migrations); the tests of a file share it when that folder is not set.
 */
export function migratedPglite(): Promise<Blob> {
  assertPgliteCanLoadInJest();
  inThisFile ??= loadOrMake();
  return inThisFile;
}

async function loadOrMake(): Promise<Blob> {
  const folder = process.env['PORTCULLIS_PGLITE_SNAPSHOTS'];
  const file = folder ? path.join(folder, 'migrated.tar') : undefined;
  if (file && existsSync(file)) return new Blob([readFileSync(file)]);
  const dump = await makeMigrated();
  if (file) {
    // Two workers may make it at once: each renames a whole file into place, and either will do.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  }
  return dump;
}

async function makeMigrated(): Promise<Blob> {
  const { db, dump, close } = await openPglite('memory://');
  try {
    await migrateAll(db);
    return await dump!();
  } finally {
    await close();
  }
}

/** An embedded database as the service serves it (openServingPglite), started from migratedPglite(). */
export async function servingTestPglite(modules: readonly ModuleMigrations[] = []): Promise<ServingDatabase> {
  return openServingPglite('memory://', modules, {}, await migratedPglite());
}
