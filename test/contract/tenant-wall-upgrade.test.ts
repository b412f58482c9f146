import { randomUUID } from 'node:crypto';
import { type Kysely, Migrator, sql } from 'kysely';
import { openPglite, openPostgres, type OpenDatabase } from '../../src/adapters/persistence/kysely/driver/dialects';
import { migrationProvider } from '../../src/adapters/persistence/kysely/migrations';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { prepareForServing } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-postgres-database';
import { assertPgliteCanLoadInJest } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';

assertPgliteCanLoadInJest();

/**
 * A product module's table walled before migration 0009, exactly as enableTenantWall wrote it then:
 * its policy reads the old setting, which any session may set. Upgrading must not leave it so.
 */
async function aModuleTableWalledTheOldWay(db: Kysely<DB>, table: string): Promise<void> {
  await sql`create table ${sql.table(table)} (id uuid primary key, tenant_id uuid not null, body text not null)`.execute(db);
  await sql`grant select, insert, update, delete on ${sql.table(table)} to ${sql.id(APP_ROLE)}`.execute(db);
  await sql`alter table ${sql.table(table)} enable row level security`.execute(db);
  const oldTenant = sql`nullif(current_setting('app.tenant_id', true), '')::uuid`;
  await sql`
    create policy tenant_wall on ${sql.table(table)} to ${sql.id(APP_ROLE)}
      using (tenant_id = ${oldTenant}) with check (tenant_id = ${oldTenant})`.execute(db);
}

async function migrateTo(db: Kysely<DB>, name: string): Promise<void> {
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(name);
  if (error) throw error;
}

function describeUpgrade(name: string, open: () => Promise<OpenDatabase & { drop?: () => Promise<void> }>): void {
  describe(`upgrading to proven tenant walls: ${name}`, () => {
    test("a module's table walled the old way is rewritten to the new check, and holds against a forged setting", async () => {
      const database = await open();
      const { db } = database;
      try {
        await migrateTo(db, '0008-credential-check-statements');
        await aModuleTableWalledTheOldWay(db, 'widgets');
        const [mine, theirs] = [randomUUID(), randomUUID()];
        await sql`insert into widgets values (${randomUUID()}, ${mine}, 'mine'), (${randomUUID()}, ${theirs}, 'theirs')`.execute(db);

        await migrateAll(db);
        const walls = new TenantWalls('an upgraded key');
        await prepareForServing(db, walls);

        const { rows: [policy] } = await sql<{ qual: string; with_check: string }>`
          select qual, with_check from pg_policies where tablename = 'widgets'`.execute(db);
        expect(policy!.qual).toMatch(/portcullis_wall_tenant\(\)/);
        expect(policy!.with_check).toMatch(/portcullis_wall_tenant\(\)/);
        expect(`${policy!.qual} ${policy!.with_check}`).not.toMatch(/app\.tenant_id/);

        const asApp = <T>(setting: { name: string; value: string }, work: (trx: Kysely<DB>) => Promise<T>) =>
          db.transaction().execute(async (trx) => {
            await sql`set local role ${sql.id(APP_ROLE)}`.execute(trx);
            await sql`select set_config(${setting.name}, ${setting.value}, true)`.execute(trx);
            return work(trx);
          });
        const bodies = (trx: Kysely<DB>) => sql<{ body: string }>`select body from widgets`.execute(trx).then((r) => r.rows);
        expect(await asApp({ name: 'app.tenant_id', value: theirs }, bodies)).toEqual([]);
        expect(await asApp({ name: WALL_SETTING, value: theirs }, bodies)).toEqual([]);
        expect(await asApp({ name: WALL_SETTING, value: walls.setting(mine) }, bodies)).toEqual([{ body: 'mine' }]);
      } finally {
        await database.close();
        await database.drop?.();
      }
    });

    test('a policy written by hand that still reads the old setting stops the migration, naming it', async () => {
      const database = await open();
      const { db } = database;
      try {
        await migrateTo(db, '0008-credential-check-statements');
        await sql`create table gadgets (id uuid primary key, tenant_id uuid not null)`.execute(db);
        await sql`alter table gadgets enable row level security`.execute(db);
        await sql`
          create policy own_gadgets on gadgets to ${sql.id(APP_ROLE)}
            using (tenant_id = current_setting('app.tenant_id')::uuid)`.execute(db);
        await expect(migrateAll(db)).rejects.toThrow(/0009-tenant-wall-proofs.*policy own_gadgets on gadgets still reads app\.tenant_id/s);
      } finally {
        await database.close();
        await database.drop?.();
      }
    });
  });
}

describeUpgrade('pglite', () => openPglite('memory://'));

describeIfPostgres('postgres', (serverUrl) => {
  describeUpgrade('postgres', async () => {
    const fresh: FreshDatabase = await createFreshDatabase(serverUrl);
    return { ...openPostgres(fresh.url, { max: 1 }), drop: fresh.drop };
  });
});
