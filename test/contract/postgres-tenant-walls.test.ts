import { openServingPostgres } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { describeIfPostgres } from '../support/postgres';
import { describeTenantWallCases } from './tenant-walls-cases';

describeIfPostgres('postgres', (url) => {
  // One connection, so "the context ends with its transaction" is checked on the very connection
  // that carried it, not on whichever one the pool hands out next.
  describeTenantWallCases('postgres', () => openServingPostgres(url, { max: 1 }));
});
