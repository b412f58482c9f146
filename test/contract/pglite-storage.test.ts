import { openPglite } from '../../src/adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/kysely-storage';
import { migrateToLatest } from '../../src/adapters/persistence/kysely/migrate';
import { assertPgliteCanLoadInJest } from '../support/pglite';
import { describeStorageContract } from './storage-contract';

// Checked before PGlite loads: without the flag its failure would take the whole worker down.
assertPgliteCanLoadInJest();

describeStorageContract('pglite', async () => {
  const { db, close } = await openPglite('memory://');
  await migrateToLatest(db);
  return createKyselyStorage(db, close);
});
