import { openPostgres } from '../../src/adapters/persistence/kysely/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/kysely-storage';
import { migrateToLatest } from '../../src/adapters/persistence/kysely/migrate';
import { describeIfPostgres } from '../support/postgres';
import { describeStorageContract } from './storage-contract';

// The concurrency cases run ten transactions at once, each holding a connection.
const POOL_SIZE = 12;

describeIfPostgres('postgres', (url) => {
  describeStorageContract(
    'postgres',
    async () => {
      const { db, close } = openPostgres(url, { max: POOL_SIZE });
      try {
        await migrateToLatest(db);
      } catch (error) {
        await close();
        throw error;
      }
      return createKyselyStorage(db, close);
    },
    { concurrent: true },
  );
});
