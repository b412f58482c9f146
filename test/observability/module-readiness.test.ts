import { type Kysely, type Migration, sql } from 'kysely';
import { request } from '../support/contract-request';
import { openServingPostgres, type ServingDatabase } from '../../src/adapters/persistence/kysely/driver/serving-database';
import { APP_ROLE } from '../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { APPLIED_MODULE_MIGRATIONS } from '../../src/adapters/persistence/kysely/migrations/0011-module-readiness-and-audit-action-index';
import type { DB } from '../../src/adapters/persistence/kysely/schema';
import { type ModuleMigrations, pendingModuleMigrations } from '../../src/adapters/persistence/modules/module-migrations';
import { openStorage, type OpenedStorage } from '../../src/bootstrap/database';
import { moduleMigrationsOf } from '../../src/bootstrap/modules/compose-modules';
import { readinessProbe } from '../../src/bootstrap/readiness';
import { notesModule } from '../../examples/notes/notes-module';
import { buildTestApp } from '../support/http-app';
import { sharedServingLogin } from '../support/least-privileged-login';
import { assertPgliteCanLoadInJest, servingTestPglite } from '../support/pglite';
import { describeIfPostgres } from '../support/postgres';
import { openTestStorage } from '../support/test-storage';

// An instance serving a product module must be ready as soon as the module's migrations are applied,
// whichever login it serves with: the least-privileged login of docs/operations.md may not read
// the module's migration table (`notes_kysely_migration`), so readiness must not need to.

const NOTES = moduleMigrationsOf([notesModule]);

/** The notes module as a later build would know it: one migration more than the database has. */
const NEXT_NOTES: ModuleMigrations[] = [{
  name: 'notes',
  migrations: { ...notesModule.migrations, '0002-not-yet': { up: async () => undefined } satisfies Migration },
}];

async function readyz(pendingMigrations: () => Promise<string[]>) {
  const { app } = await buildTestApp({}, {}, { readiness: readinessProbe({ isShuttingDown: () => false, pendingMigrations, timeoutMs: 5_000 }) });
  return request(app).get('/readyz');
}

async function expectReady(opened: OpenedStorage): Promise<void> {
  expect(await opened.pendingMigrations()).toEqual([]);
  const res = await readyz(opened.pendingMigrations);
  expect(res.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok' } });
  expect(res.status).toBe(200);
}

async function expectNotReadyWhileTheNextMigrationIsPending(serving: ServingDatabase): Promise<void> {
  const res = await readyz(() => pendingModuleMigrations(serving.db, NEXT_NOTES));
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ error: 'Service unavailable', status: 'not ready', checks: { database: 'ok', migrations: 'pending: notes/0002-not-yet' } });
}

/** The one way the app role learns a module's migrations: narrow, as the owner, and the app role's alone. */
async function expectTheNarrowFunction(serving: Kysely<DB>): Promise<void> {
  const applied = async (name: string | null) =>
    (await sql<{ name: string }>`select name from ${sql.id(APPLIED_MODULE_MIGRATIONS)}(${name}) as name`.execute(serving)).rows.map((row) => row.name);
  expect(await applied('notes')).toEqual(['0001-notes']);
  // Nothing but `public.<module name>_kysely_migration` is ever read.
  for (const other of ['tenants', 'users', 'Notes', 'notes_kysely_migration', 'notes; select 1', 'public.notes', '', 'no_such_module', null]) {
    expect(await applied(other)).toEqual([]);
  }
  const { rows: [fn] } = await sql<{ definer: boolean; config: string[] | null; public_can: boolean; app_can: boolean }>`
    select p.prosecdef as definer, p.proconfig as config,
           exists (select from aclexplode(p.proacl) acl where acl.grantee = 0) as public_can,
           has_function_privilege(${APP_ROLE}, p.oid, 'execute') as app_can
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.proname = ${APPLIED_MODULE_MIGRATIONS}`.execute(serving);
  expect(fn).toEqual({ definer: true, config: ['search_path=public, pg_temp'], public_can: false, app_can: true });
  // The app role itself still may not read the table.
  await expect(sql`select name from notes_kysely_migration`.execute(serving)).rejects.toMatchObject({ code: '42501' });
}

describe('readiness with a product module: PGlite', () => {
  beforeAll(() => assertPgliteCanLoadInJest());

  it('is 200 once the notes module is migrated', async () => {
    const opened = await openTestStorage('pglite', NOTES);
    try {
      await expectReady(opened);
    } finally {
      await opened.storage.close();
    }
  }, 60_000);

  it('is 503 while a module migration is pending; the app role reads module migrations through one narrow function', async () => {
    const serving = await servingTestPglite(NOTES);
    try {
      await expectNotReadyWhileTheNextMigrationIsPending(serving);
      await expectTheNarrowFunction(serving.db);
    } finally {
      await serving.close();
    }
  }, 60_000);
});

describeIfPostgres('readiness with a product module: Postgres', (url) => {
  const login = sharedServingLogin(() => url);
  afterAll(async () => {
    await login.drop();
  });

  it('is 200 when served as the owner', async () => {
    const opened = await openStorage({ databaseUrl: url, pgliteDir: '', migrationDatabaseUrl: undefined }, undefined, NOTES);
    try {
      await expectReady(opened);
    } finally {
      await opened.storage.close();
    }
  });

  it('is 200 when served with a least-privileged login, migrated as the owner (MIGRATION_DATABASE_URL)', async () => {
    const opened = await openStorage({ databaseUrl: (await login.get()).url, pgliteDir: '', migrationDatabaseUrl: url }, undefined, NOTES);
    try {
      await expectReady(opened);
    } finally {
      await opened.storage.close();
    }
  });

  it('starts and is 200 with a least-privileged login alone, on a schema migrated beforehand', async () => {
    await (await openStorage({ databaseUrl: url, pgliteDir: '' }, undefined, NOTES)).storage.close();
    const opened = await openStorage({ databaseUrl: (await login.get()).url, pgliteDir: '' }, undefined, NOTES);
    try {
      await expectReady(opened);
    } finally {
      await opened.storage.close();
    }
  });

  it('is 503, naming the migration, while a module migration this build knows is pending, under the least-privileged login', async () => {
    const serving = await openServingPostgres((await login.get()).url, { max: 1, migrationUrl: url, modules: NOTES });
    try {
      expect(await pendingModuleMigrations(serving.db, NOTES)).toEqual([]);
      await expectNotReadyWhileTheNextMigrationIsPending(serving);
      await expectTheNarrowFunction(serving.db);
    } finally {
      await serving.close();
    }
  });
});
