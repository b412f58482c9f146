import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeStorageContract } from './storage-contract';

// Checked before PGlite loads: without the flag its failure would take the whole worker down.
assertPgliteCanLoadInJest();

// As the service opens it: migrated, then working as the walled app role.
describeStorageContract('pglite', async () => {
  const { db, close, walls } = await servingTestPglite();
  return createKyselyStorage({ db, walls }, close);
});
