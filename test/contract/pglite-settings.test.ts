import { type Kysely, sql } from 'kysely';
import { openServingPglite } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { migrations } from '../../src/adapters/persistence/kysely/migrations';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { ownerView } from '../support/owner-view';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';

assertPgliteCanLoadInJest();

describe('the embedded database as the service opens it', () => {
  it("keeps a 16 MB buffer cache (its WebAssembly memory never shrinks) and PGlite's own start settings", async () => {
    const { db, close } = await servingTestPglite();
    try {
      const { rows: [settings] } = await sql<{ buffers: string; path: string; workers: string }>`
        select current_setting('shared_buffers') as buffers, current_setting('search_path') as path,
               current_setting('max_worker_processes') as workers`.execute(db);
      expect(settings).toEqual({ buffers: '16MB', path: 'public', workers: '0' });
    } finally {
      await close();
    }
  });
});

describe('the migrated snapshot the tests start embedded databases from', () => {
  /** What a schema is made of, as text: tables and columns, indexes, policies, functions, triggers, grants, migrations. */
  async function schemaOf(serving: Kysely<DB>): Promise<Record<string, unknown[]>> {
    const owner = ownerView(serving);
    const rows = async (query: ReturnType<typeof sql>) => (await query.execute(owner)).rows;
    return {
      columns: await rows(sql`select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
        where table_schema = 'public' order by table_name, column_name`),
      indexes: await rows(sql`select indexname, indexdef from pg_indexes where schemaname = 'public' order by indexname`),
      policies: await rows(sql`select tablename, policyname, roles, cmd, qual, with_check from pg_policies order by tablename, policyname`),
      functions: await rows(sql`select p.proname, p.prosrc, p.prosecdef, p.proconfig from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' order by p.proname, p.prosrc`),
      triggers: await rows(sql`select tgrelid::regclass::text as on_table, tgname, tgenabled from pg_trigger where not tgisinternal order by 1, 2`),
      grants: await rows(sql`select grantee, table_name, privilege_type from information_schema.role_table_grants
        where table_schema = 'public' order by 1, 2, 3`),
      migrations: await rows(sql`select name from kysely_migration order by name`),
    };
  }

  it('serves the same schema as an embedded database initialised and migrated from nothing', async () => {
    const fromNothing = await openServingPglite('memory://');
    const fromSnapshot = await servingTestPglite();
    try {
      const expected = await schemaOf(fromNothing.db);
      expect(expected['migrations']).toHaveLength(Object.keys(migrations).length);
      expect(await schemaOf(fromSnapshot.db)).toEqual(expected);
    } finally {
      await fromNothing.close();
      await fromSnapshot.close();
    }
  }, 120_000); // an empty cluster's initialisation takes seconds on a busy machine
});
