import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { openPostgres } from '../../src/adapters/persistence/kysely/driver/dialects';
import { createKyselyStorage } from '../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { migrateAll } from '../../src/adapters/persistence/modules/module-migrations';
import { WALL_SETTING } from '../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import {
  openServingPglite, openServingPostgres, prepareForServing, type ServingDatabase,
} from '../../src/adapters/persistence/kysely/driver/serving-database';
import { loginOf } from '../../src/adapters/persistence/kysely/driver/tenant-wall-setup';
import { TenantWalls } from '../../src/adapters/persistence/kysely/driver/tenant-walls';
import { createFreshDatabase, type FreshDatabase } from '../support/fresh-postgres-database';
import { createServingLogin, type ServingLogin } from '../support/least-privileged-login';
import { assertPgliteCanLoadInJest } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';
import { seedTenant } from './storage-fixtures';

assertPgliteCanLoadInJest();

const MISMATCH = /TENANT_WALL_KEY is not the key this database's tenant walls were set up with/;
const INSUFFICIENT_PRIVILEGE = '42501';
const key = () => `a key of ${randomUUID()}`;

/** A tenant and its member written through the service's own path, read back as the service would. */
async function aTenantReadsBack(opened: ServingDatabase): Promise<void> {
  const { repos } = createKyselyStorage(opened, async () => undefined);
  const { tenant, user } = await seedTenant(repos, 'owner');
  expect(await repos.users.findById(tenant.id, user.id)).toEqual(user);
}

describe('the tenant-wall key on PGlite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-wall-key-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the first start installs its key; a start with another key refuses, naming TENANT_WALL_KEY; the old key as PREVIOUS adds the new one', async () => {
    const dataDir = join(dir, 'data');
    const [first, second] = [key(), key()];
    const opened = await openServingPglite(dataDir, [], { tenantWallKey: first });
    await aTenantReadsBack(opened);
    await opened.close();

    await expect(openServingPglite(dataDir, [], { tenantWallKey: second })).rejects.toThrow(MISMATCH);

    const replaced = await openServingPglite(dataDir, [], { tenantWallKey: second, tenantWallKeyPrevious: first });
    await aTenantReadsBack(replaced);
    await replaced.close();
    // Until the operator drops the old key, an instance still on it keeps working.
    const old = await openServingPglite(dataDir, [], { tenantWallKey: first });
    await aTenantReadsBack(old);
    await old.close();
  }, 120_000); // an embedded database made in a folder and opened four times: about 15 s alone, far more on a busy machine
});

describeIfPostgres('the tenant-wall key and who may connect, on Postgres', (serverUrl) => {
  const made: { databases: FreshDatabase[]; logins: ServingLogin[] } = { databases: [], logins: [] };
  const opened: { close(): Promise<void> }[] = [];
  const track = <T extends { close(): Promise<void> }>(resource: T): T => {
    opened.push(resource);
    return resource;
  };
  const freshDatabase = async () => {
    const database = await createFreshDatabase(serverUrl);
    made.databases.push(database);
    return database;
  };
  const loginFor = async (database: FreshDatabase) => {
    const login = await createServingLogin(database.url);
    made.logins.push(login);
    return login;
  };
  afterAll(async () => {
    for (const resource of opened.reverse()) await resource.close();
    for (const login of made.logins) await login.drop();
    for (const database of made.databases) await database.drop();
  });

  test('a start with another key refuses, as the owner and as a serving login alone; the key it was set up with starts', async () => {
    const database = await freshDatabase();
    const first = key();
    await (await openServingPostgres(database.url, { max: 1, tenantWallKey: first })).close();
    await expect(openServingPostgres(database.url, { max: 1, tenantWallKey: key() })).rejects.toThrow(MISMATCH);

    // A serving login cannot read the keys: the check it runs through the walls' own function says so.
    const login = await loginFor(database);
    await expect(openServingPostgres(login.url, { max: 1, tenantWallKey: key() })).rejects.toThrow(MISMATCH);
    const serving = track(await openServingPostgres(login.url, { max: 1, tenantWallKey: first }));
    await aTenantReadsBack(serving);
  });

  test('a schema migrated without installing a key does not serve: the start says the key is missing', async () => {
    const database = await freshDatabase();
    const login = await loginFor(database); // migrates as the owner, and installs nothing
    await expect(openServingPostgres(login.url, { max: 1 })).rejects.toThrow(/no tenant-wall key is installed/);
    // Migrating as the owner (MIGRATION_DATABASE_URL) installs it.
    track(await openServingPostgres(login.url, { max: 1, migrationUrl: database.url }));
  });

  test('replacing the key: PREVIOUS adds the new key beside the old, both serve until the owner drops the old one', async () => {
    const database = await freshDatabase();
    const [old, next] = [key(), key()];
    await (await openServingPostgres(database.url, { max: 1, tenantWallKey: old })).close();
    await aTenantReadsBack(track(await openServingPostgres(database.url, { max: 1, tenantWallKey: next, tenantWallKeyPrevious: old })));
    await aTenantReadsBack(track(await openServingPostgres(database.url, { max: 1, tenantWallKey: old })));

    // As docs/operations.md says: keep the newest key only.
    const owner = track(openPostgres(database.url, { max: 1 }));
    await sql`delete from tenant_wall_keys where added_at < (select max(added_at) from tenant_wall_keys)`.execute(owner.db);
    await expect(openServingPostgres(database.url, { max: 1, tenantWallKey: old })).rejects.toThrow(MISMATCH);
    await aTenantReadsBack(track(await openServingPostgres(database.url, { max: 1, tenantWallKey: next })));
  });

  test("upgrading: a serving login that connected through PUBLIC keeps connecting; PUBLIC, and other databases' logins, no longer may", async () => {
    const ours = await freshDatabase();
    const theirs = await freshDatabase();
    // Both databases as a deployment made before this version: migrated, a serving login relying on PUBLIC's CONNECT.
    const ourLogin = await loginFor(ours);
    const theirLogin = await loginFor(theirs);
    const publicConnects = async (db: Kysely<DB>) =>
      (await sql<{ can: boolean }>`select has_database_privilege('public', current_database(), 'CONNECT') as can`.execute(db)).rows[0]!.can;
    const owner = track(openPostgres(ours.url, { max: 1 }));
    expect(await publicConnects(owner.db)).toBe(true);

    // The upgrade's start, migrating as the owner: the serving login is granted CONNECT before PUBLIC loses it.
    const serving = track(await openServingPostgres(ourLogin.url, { max: 1, migrationUrl: ours.url }));
    await aTenantReadsBack(serving);
    expect(await publicConnects(owner.db)).toBe(false);
    const again = track(openPostgres(ourLogin.url, { max: 1 }));
    expect((await sql<{ me: string }>`select session_user as me`.execute(again.db)).rows).toEqual([{ me: ourLogin.name }]);

    // The other database's login, a member of the same cluster-wide app role, cannot connect to ours.
    const intruderUrl = new URL(theirLogin.url);
    intruderUrl.pathname = `/${ours.name}`;
    const intruder = track(openPostgres(intruderUrl.toString(), { max: 1 }));
    await expect(sql`select 1`.execute(intruder.db)).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
  });

  test("a login of another database that is let in anyway still reads nothing: its service's key makes no proof ours accepts", async () => {
    const ours = await freshDatabase();
    const theirs = await freshDatabase();
    const ourKey = key();
    const serving = track(await openServingPostgres(ours.url, { max: 1, tenantWallKey: ourKey }));
    const { repos } = createKyselyStorage(serving, async () => undefined);
    const { tenant } = await seedTenant(repos, 'owner');
    const theirLogin = await loginFor(theirs);
    const theirWalls = new TenantWalls(key());
    await (await openServingPostgres(theirLogin.url, { max: 1, migrationUrl: theirs.url, tenantWallKey: key() })).close();

    // An operator's mistake lets it in (every database's serving login is a member of the one app role).
    const owner = track(openPostgres(ours.url, { max: 1 }));
    await sql`grant connect on database ${sql.id(ours.name)} to ${sql.id(theirLogin.name)}`.execute(owner.db);
    const intruderUrl = new URL(theirLogin.url);
    intruderUrl.pathname = `/${ours.name}`;
    const intruder = track(openPostgres(intruderUrl.toString(), { max: 1 }));
    for (const value of [theirWalls.setting(tenant.id), tenant.id]) {
      const seen = await intruder.db.transaction().execute(async (trx) => {
        await sql`select set_config(${WALL_SETTING}, ${value}, true)`.execute(trx);
        return [...await trx.selectFrom('users').select('id').execute(), ...await trx.selectFrom('tenants').select('id').execute()];
      });
      expect(seen).toEqual([]);
    }
    // The control: the same statement with our key's proof reads the tenant.
    const genuine = await intruder.db.transaction().execute(async (trx) => {
      await sql`select set_config(${WALL_SETTING}, ${new TenantWalls(ourKey).setting(tenant.id)}, true)`.execute(trx);
      return trx.selectFrom('tenants').select('id').execute();
    });
    expect(genuine).toEqual([{ id: tenant.id }]);
    await sql`revoke connect on database ${sql.id(ours.name)} from ${sql.id(theirLogin.name)}`.execute(owner.db);
  });

  test('npm run migrate does the same as a start: installs the key, and with both URLs lets only the serving login connect', async () => {
    const database = await freshDatabase();
    const login = await loginFor(database);
    const owner = track(openPostgres(database.url, { max: 1 }));
    await migrateAll(owner.db);
    const walls = new TenantWalls(key());
    await prepareForServing(owner.db, walls, { servingLogin: loginOf(login.url) });
    const { rows } = await sql<{ public_can: boolean; login_can: boolean }>`
      select has_database_privilege('public', current_database(), 'CONNECT') as public_can,
             has_database_privilege(${login.name}, current_database(), 'CONNECT') as login_can`.execute(owner.db);
    expect(rows).toEqual([{ public_can: false, login_can: true }]);
    await expect(prepareForServing(owner.db, new TenantWalls(key()))).rejects.toThrow(MISMATCH);
  });
});

describe('loginOf', () => {
  test('reads the login a connection string names', () => {
    expect(loginOf('postgres://portcullis_web:secret@db:5432/portcullis')).toBe('portcullis_web');
    expect(loginOf('postgres://we%20b@db/portcullis')).toBe('we b');
    expect(loginOf('postgres://db/portcullis?user=from_query')).toBe('from_query');
    expect(loginOf('postgres://db/portcullis')).toBeUndefined();
  });
});
