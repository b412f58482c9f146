import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { createKyselyStorage } from '../../../src/adapters/persistence/kysely/repositories/kysely-storage';
import { APP_ROLE } from '../../../src/adapters/persistence/kysely/migrations/0002-tenant-walls';
import { WALL_SETTING } from '../../../src/adapters/persistence/kysely/migrations/0009-tenant-wall-proofs';
import type { ServingDatabase } from '../../../src/adapters/persistence/kysely/driver/serving-database';
import { kyselyModuleStore } from '../../../src/adapters/persistence/modules/kysely-module-store';
import { ownerView } from '../../../test/support/owner-view';
import { aTenant } from '../../../test/contract/storage-fixtures';
import type { NotesDB } from '../adapters/persistence/kysely-note-repository';
import { NOTES_STORAGE } from '../adapters/persistence/notes-storage';
import type { Note } from '../domain/note';
import { describeNotesStorageCases } from './notes-storage-cases';

// Opening a database (PGlite above all) can take long on a busy machine.
const OPEN_TIMEOUT_MS = 120_000;

const INSUFFICIENT_PRIVILEGE = '42501';

/**
 * The notes module on a SQL backend opened as the service opens it (identity's migrations, then the
 * module's; serving as the walled app role): the storage contract, and proof that the table is
 * behind the same wall as identity's, from the one enableTenantWall call in its migration.
 */
export function describeNotesOnSql(name: string, open: () => Promise<ServingDatabase>): void {
  describeNotesStorageCases(name, async () => {
    const opened = await open();
    return { store: kyselyModuleStore(opened), identity: createKyselyStorage(opened, opened.close).repos, close: opened.close };
  });

  describe(`notes table behind the tenant wall: ${name}`, () => {
    let opened: ServingDatabase;
    beforeAll(async () => {
      opened = await open();
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await opened?.close();
    });
    const serving = () => opened.db as unknown as Kysely<NotesDB>;

    async function storedNote(): Promise<Note> {
      const tenant = aTenant();
      await createKyselyStorage(opened, async () => undefined).repos.tenants.create(tenant);
      const note: Note = { id: randomUUID(), tenantId: tenant.id, title: 't', body: '', createdBy: randomUUID(), createdAt: new Date() };
      await kyselyModuleStore(opened).unitOfWork(NOTES_STORAGE).run(tenant.id, (tx) => tx.repos.notes.create(note));
      return note;
    }

    it('has row-level security on, with the tenant policy for the app role, and an owner that is not it', async () => {
      const { rows } = await sql<{ owner: string; rls: boolean; policies: string[] }>`
        select pg_get_userbyid(c.relowner) as owner, c.relrowsecurity as rls,
               array(select p.polname::text from pg_policy p where p.polrelid = c.oid) as policies
        from pg_class c where c.relname = 'notes'`.execute(opened.db);
      expect(rows).toEqual([{ owner: expect.not.stringMatching(new RegExp(`^${APP_ROLE}$`)), rls: true, policies: ['tenant_wall'] }]);
    });

    it('records its migrations apart from identity\'s', async () => {
      const owner = ownerView(opened.db);
      const { rows: own } = await sql<{ name: string }>`select name from notes_kysely_migration`.execute(owner);
      expect(own.map((row) => row.name)).toEqual(['0001-notes']);
      const { rows: identity } = await sql<{ name: string }>`select name from kysely_migration where name like '%notes%'`.execute(owner);
      expect(identity).toEqual([]);
    });

    const withSetting = <T>(name: string, value: string, work: (trx: Kysely<NotesDB>) => Promise<T>) =>
      serving().transaction().execute(async (trx) => {
        await sql`select set_config(${name}, ${value}, true)`.execute(trx);
        return work(trx);
      });

    it('shows the app role no note without a tenant setting, nor for a tenant named without its proof; only the proven tenant\'s', async () => {
      const a = await storedNote();
      const b = await storedNote();
      const both = (trx: Kysely<NotesDB>) => trx.selectFrom('notes').select('id').where('id', 'in', [a.id, b.id]).execute();
      expect(await serving().selectFrom('notes').select('id').execute()).toEqual([]);
      expect(await withSetting('app.tenant_id', a.tenantId, both)).toEqual([]);
      expect(await withSetting(WALL_SETTING, a.tenantId, both)).toEqual([]);
      expect(await withSetting(WALL_SETTING, `${a.tenantId}:${opened.walls.tenantProof(b.tenantId)}`, both)).toEqual([]);
      expect(await withSetting(WALL_SETTING, opened.walls.setting(a.tenantId), both)).toEqual([{ id: a.id }]);
    });

    it('refuses to write a note for another tenant than the setting\'s', async () => {
      const a = await storedNote();
      const b = await storedNote();
      await expect(serving().transaction().execute(async (trx) => {
        await sql`select set_config(${WALL_SETTING}, ${opened.walls.setting(a.tenantId)}, true)`.execute(trx);
        await trx.insertInto('notes').values({ ...{ id: randomUUID(), title: 'x', body: '', created_by: a.createdBy, created_at: new Date() }, tenant_id: b.tenantId }).execute();
      })).rejects.toMatchObject({ code: INSUFFICIENT_PRIVILEGE });
    });
  });
}
