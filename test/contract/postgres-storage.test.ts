import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { describeIfPostgres } from '../support/postgres';
import { describeStorageContract } from './storage-contract';

// The concurrency cases run ten transactions at once, each holding a connection.
const POOL_SIZE = 12;

// As the service opens it: migrated as the owner, then working as the walled app role.
describeIfPostgres('postgres', (url) => {
  describeStorageContract(
    'postgres',
    async () => {
      const { db, close, walls } = await openServingPostgres(url, { max: POOL_SIZE });
      return createKyselyStorage({ db, walls }, close);
    },
    { concurrent: true },
  );
});
