import { type Kysely, sql } from 'kysely';
import { openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';

// Opening a database (PGlite above all) can take long on a busy machine.
const OPEN_TIMEOUT_MS = 120_000;

assertPgliteCanLoadInJest();

const setting = async (db: Kysely<DB>) =>
  (await sql<{ value: string | null }>`select current_setting('app.savepoint_probe', true) as value`.execute(db)).rows[0]?.value ?? '';
const set = (db: Kysely<DB>, value: string) => sql`select set_config('app.savepoint_probe', ${value}, true)`.execute(db);

/**
 * Savepoints through the service's own dialects (the connection-failure wrapper around Kysely's
 * Postgres driver and PGlite's): a controlled transaction's `savepoint()`, rolling back to one and releasing one work, as
 * a transaction-local setting made after the savepoint shows.
 */
function describeSavepoints(name: string, open: () => Promise<ServingDatabase>): void {
  describe(`savepoints: ${name}`, () => {
    let opened: ServingDatabase;
    beforeAll(async () => {
      opened = await open();
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await opened?.close();
    });

    it('rolls back to a savepoint, keeping what came before it', async () => {
      const trx = await opened.db.startTransaction().execute();
      try {
        await set(trx, 'before');
        const inner = await trx.savepoint('probe').execute();
        await set(inner, 'after');
        expect(await setting(inner)).toBe('after');
        const outer = await inner.rollbackToSavepoint('probe').execute();
        expect(await setting(outer)).toBe('before');
        await outer.commit().execute();
      } finally {
        if (!trx.isCommitted) await trx.rollback().execute();
      }
    });

    it('releases a savepoint, keeping what came after it', async () => {
      const trx = await opened.db.startTransaction().execute();
      try {
        const inner = await trx.savepoint('probe').execute();
        await set(inner, 'kept');
        const outer = await inner.releaseSavepoint('probe').execute();
        expect(await setting(outer)).toBe('kept');
        await outer.commit().execute();
      } finally {
        if (!trx.isCommitted) await trx.rollback().execute();
      }
    });
  });
}

describeSavepoints('pglite', () => servingTestPglite());
describeIfPostgres('postgres', (url) => {
  describeSavepoints('postgres', () => openServingPostgres(url, { max: 1 }));
});
