import { type Kysely, sql } from 'kysely';
import { openPostgres, type OpenDatabase } from '../../src/adapters/persistence/kysely/driver/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { openServingPostgres, pendingMigrations, servingLoginRisks } from '../../src/adapters/persistence/kysely/driver/serving-database';
import type { TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import { anAuditEvent } from './cases/audit-event-cases';
import { seedTenant } from './storage-fixtures';
import { describeTenantWallCases } from './tenant-walls-cases';
import { sharedServingLogin } from '../support/least-privileged-login';
import { describeIfPostgres } from '../support/postgres';

const INSUFFICIENT_PRIVILEGE = '42501';

describeIfPostgres('Postgres served with a least-privileged login', (url) => {
  const login = sharedServingLogin(() => url);
  let owner: OpenDatabase;
  // The login's own connection, never switched to the app role: what an injection that ran RESET ROLE has.
  let loginUrl: string | undefined;
  let asTheLogin: OpenDatabase | undefined;
  beforeAll(() => {
    owner = openPostgres(url, { max: 2 });
  });
  afterAll(async () => {
    await asTheLogin?.close();
    await owner?.close();
    await login.drop();
  });

  // The whole proof again, this time with a login that is not the owner (the owner's view is a pool
  // of its own), and the forged tenant contexts tried on the login's own connection.
  describeTenantWallCases(
    'least-privileged login',
    async () => {
      loginUrl = (await login.get()).url;
      return openServingPostgres(loginUrl, { max: 1, migrationUrl: url });
    },
    () => owner.db,
    () => (asTheLogin ??= openPostgres(loginUrl!, { max: 1 })).db,
  );

  describe('after RESET ROLE, an injected statement still gains nothing', () => {
    let attacker: OpenDatabase;
    let a: Awaited<ReturnType<typeof seedTenant>>;
    let b: Awaited<ReturnType<typeof seedTenant>>;
    let walls: TenantWalls;
    beforeAll(async () => {
      const serving = await openServingPostgres((await login.get()).url, { max: 2, migrationUrl: url });
      walls = serving.walls;
      try {
        const { repos } = createKyselyStorage(serving, async () => undefined);
        a = await seedTenant(repos, 'owner');
        b = await seedTenant(repos, 'owner');
        await repos.auditEvents.append(anAuditEvent(a.tenant.id));
      } finally {
        await serving.close();
      }
      // A pool without the switch to the app role: what a RESET ROLE leaves a connection as.
      attacker = openPostgres((await login.get()).url, { max: 1 });
    });
    afterAll(async () => {
      await attacker?.close();
    });
    const asLogin = <T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> =>
      attacker.db.transaction().execute(async (trx) => {
        await sql`reset role`.execute(trx);
        return work(trx);
      });

    it('is the login itself, neither superuser nor owner, and the start-up check finds nothing to warn about', async () => {
      const { rows: [me] } = await sql<{ user: string; session: string }>`select current_user as user, session_user as session`.execute(attacker.db);
      expect(me!.user).toBe((await login.get()).name);
      expect(me!.session).toBe(me!.user);
      expect(await servingLoginRisks(attacker.db)).toEqual([]);
      // The same check on the owner's login (a superuser here) names it.
      expect(await servingLoginRisks(owner.db)).toEqual(expect.arrayContaining([expect.stringMatching(/is a superuser/)]));
    });

    it("reads no row of any tenant without the tenant setting, nor with a tenant's id and no proof; only that tenant with its proof", async () => {
      for (const table of ['tenants', 'users', 'api_keys', 'tenant_invites', 'audit_events'] as const) {
        expect(await asLogin((trx) => trx.selectFrom(table).select('id').execute())).toEqual([]);
      }
      const withSetting = (name: string, value: string) => asLogin(async (trx) => {
        await sql`select set_config(${name}, ${value}, true)`.execute(trx);
        return trx.selectFrom('users').select('tenant_id').execute();
      });
      expect(await withSetting('app.tenant_id', a.tenant.id)).toEqual([]);
      expect(await withSetting(WALL_SETTING, a.tenant.id)).toEqual([]);
      // The proof only the service can make (it holds the key): the walls admit that tenant, and only it.
      const seen = await withSetting(WALL_SETTING, walls.setting(a.tenant.id));
      expect(seen).toEqual([{ tenant_id: a.tenant.id }]);
      expect(seen).not.toContainEqual({ tenant_id: b.tenant.id });
    });

    it('can neither update nor delete the audit trail', async () => {
      await expect(asLogin((trx) => trx.updateTable('audit_events').set({ action: 'login.succeeded' }).execute()))
        .rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      await expect(asLogin((trx) => trx.deleteFrom('audit_events').execute())).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      await expect(asLogin((trx) => sql`truncate audit_events`.execute(trx))).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      const kept = await owner.db.selectFrom('audit_events').select('id').where('tenant_id', '=', a.tenant.id).execute();
      expect(kept.length).toBeGreaterThan(0);
    });

    it('can alter, drop or create no table, read no migration record, and become no other role', async () => {
      const refused = [
        sql`alter table users add column stolen text`,
        sql`alter table users disable row level security`,
        sql`drop policy tenant_wall on users`,
        sql`drop table tenant_invites`,
        sql`create table loot (id int)`,
        sql`select name from kysely_migration`,
        sql`set role postgres`,
      ];
      for (const statement of refused) {
        await expect(asLogin((trx) => statement.execute(trx))).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
      }
      const { rows } = await sql<{ relrowsecurity: boolean }>`select relrowsecurity from pg_class where relname = 'users'`.execute(owner.db);
      expect(rows).toEqual([{ relrowsecurity: true }]);
    });

    it('still learns which migrations are applied (readiness), through the narrow function', async () => {
      expect(await pendingMigrations(attacker.db)).toEqual([]);
    });

    it('starts without MIGRATION_DATABASE_URL on a schema migrated beforehand: there is nothing for it to apply', async () => {
      const serving = await openServingPostgres((await login.get()).url, { max: 1 });
      try {
        expect(serving.appliedMigrations).toEqual([]);
        const { rows } = await sql<{ role: string }>`select current_user as role`.execute(serving.db);
        expect(rows[0]!.role).toBe('portcullis_app');
      } finally {
        await serving.close();
      }
    });
  });

  describe('the role the pool works as', () => {
    it('is taken at connect; a role the login may not take refuses the connection, and the pool lends its one slot again', async () => {
      const { url: asLogin } = await login.get();
      // Serving opens its pool with the app role (and lets the login connect to this database at all).
      const serving = await openServingPostgres(asLogin, { max: 1, migrationUrl: url });
      const overreaching = openPostgres(asLogin, { max: 1, role: 'postgres', connectTimeoutMs: 2000 });
      try {
        const { rows } = await sql<{ role: string }>`select current_user as role`.execute(serving.db);
        expect(rows).toEqual([{ role: 'portcullis_app' }]);
        // Twice over a pool of one: a refused connection leaves no checkout behind to wait for.
        for (let attempt = 0; attempt < 2; attempt += 1) {
          await expect(sql`select 1`.execute(overreaching.db)).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
        }
        expect(overreaching.poolStats!()).toMatchObject({ total: 0, waiting: 0 });
      } finally {
        await overreaching.close();
        await serving.close();
      }
    });
  });
});
