import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TenantUnitOfWork } from '../../../src/application/modules/tenant-unit-of-work';
import type { ModuleStorageAdapters, ModuleStore } from '../../../src/adapters/persistence/modules/module-store';
import type { Repositories } from '../../../src/application/ports/repositories';
import type { AuditEvent } from '../../../src/domain/audit-event';
import { InsufficientRole, InvalidApiKey, InvalidToken } from '../../../src/domain/errors';
import { aTenant, aUser } from '../../../test/contract/storage-fixtures';
import type { NoteRepositories, NoteRepository } from '../application/note-repository';
import type { Note } from '../domain/note';
import type { NotesDB } from '../adapters/persistence/kysely-note-repository';
import type { NotesState } from '../adapters/persistence/memory-note-repository';
import { NOTES_STORAGE } from '../adapters/persistence/notes-storage';

// Opening a database (PGlite above all) can take long on a busy machine.
const OPEN_TIMEOUT_MS = 120_000;

/** One backend as the notes contract needs it: the module store, and identity's repositories (tenants, the trail). */
export interface NotesBackend {
  readonly store: ModuleStore;
  readonly identity: Repositories;
  close(): Promise<void>;
}

let clock = Date.now();
function aNote(tenantId: string, overrides: Partial<Note> = {}): Note {
  clock += 1; // distinct, increasing times: the order is then the order of writing
  return { id: randomUUID(), tenantId, title: 'A note', body: '', createdBy: randomUUID(), createdAt: new Date(clock), ...overrides };
}

function anEvent(tenantId: string, action: 'note.created' | 'note.deleted', targetId: string): AuditEvent {
  return {
    id: randomUUID(), tenantId, actorUserId: randomUUID(), actorMethod: 'jwt', action, targetId,
    clientAddress: null, userAgent: null, requestId: null, occurredAt: new Date(), details: {},
  };
}

/**
 * A repository with the bug the wall exists for: it lists and deletes without naming the tenant at
 * all. Over the platform's tenant-scoped unit of work it must still see and touch only the run's
 * tenant's notes: on SQL storage row-level security refuses the rest, in memory the run is handed
 * its tenant's records only.
 */
const FORGETFUL: ModuleStorageAdapters<NoteRepositories, NotesState> = {
  kysely: (db: Kysely<NotesDB>) => ({
    notes: {
      create: (note) => NOTES_STORAGE.kysely(db).notes.create(note),
      listNewestFirst: async () => (await db.selectFrom('notes').select(['id', 'tenant_id']).execute())
        .map((row) => ({ id: row.id, tenantId: row.tenant_id }) as Note),
      delete: async (_tenantId, noteId) => (await db.deleteFrom('notes').where('id', '=', noteId).executeTakeFirst()).numDeletedRows > 0n,
    } satisfies NoteRepository,
  }),
  memory: {
    ...NOTES_STORAGE.memory,
    repositories: (state) => ({
      notes: {
        create: async (note) => { state.set(note.id, note); },
        listNewestFirst: async () => [...state.values()],
        delete: async (_tenantId, noteId) => state.delete(noteId),
      },
    }),
  },
};

/** The notes storage contract: the same cases over memory, PGlite and Postgres. */
export function describeNotesStorageCases(name: string, open: () => Promise<NotesBackend>): void {
  describe(`notes storage: ${name}`, () => {
    let backend: NotesBackend;
    let notes: TenantUnitOfWork<NoteRepositories>;
    beforeAll(async () => {
      backend = await open();
      notes = backend.store.unitOfWork(NOTES_STORAGE);
    }, OPEN_TIMEOUT_MS);
    afterAll(async () => {
      await backend?.close();
    });
    const aStoredTenant = async () => {
      const tenant = aTenant();
      await backend.identity.tenants.create(tenant);
      return tenant.id;
    };
    const list = (tenantId: string) => notes.read(tenantId, (repos) => repos.notes.listNewestFirst(tenantId));

    it('stores notes and lists a tenant\'s own, newest first', async () => {
      const a = await aStoredTenant();
      const b = await aStoredTenant();
      const [first, second, other] = [aNote(a, { title: 'first', body: 'some text' }), aNote(a, { title: 'second' }), aNote(b)];
      for (const note of [first, second, other]) await notes.run(note.tenantId, (tx) => tx.repos.notes.create(note));
      expect(await list(a)).toEqual([second, first]);
      expect(await list(b)).toEqual([other]);
    });

    it('deletes a tenant\'s note once, and not another tenant\'s', async () => {
      const a = await aStoredTenant();
      const b = await aStoredTenant();
      const note = aNote(a);
      await notes.run(a, (tx) => tx.repos.notes.create(note));
      expect(await notes.run(b, (tx) => tx.repos.notes.delete(b, note.id))).toBe(false);
      expect(await notes.run(a, (tx) => tx.repos.notes.delete(a, note.id))).toBe(true);
      expect(await notes.run(a, (tx) => tx.repos.notes.delete(a, note.id))).toBe(false);
      expect(await list(a)).toEqual([]);
    });

    it("runAs writes in the caller's name only while the caller still holds the role", async () => {
      const a = await aStoredTenant();
      const admin = aUser(a, { role: 'admin' });
      await backend.identity.users.create(admin);
      const caller = { tenantId: a, userId: admin.id, role: 'admin', method: 'jwt' } as const;
      const kept = aNote(a, { createdBy: admin.id });
      await notes.runAs(caller, 'admin', (tx) => tx.repos.notes.create(kept));

      // Demoted after authenticating: the request's role is stale, the stored one decides.
      await backend.identity.users.changeRole(a, admin.id, 'member');
      await expect(notes.runAs(caller, 'admin', (tx) => tx.repos.notes.create(aNote(a)))).rejects.toBeInstanceOf(InsufficientRole);
      await notes.runAs(caller, 'member', (tx) => tx.repos.notes.delete(a, kept.id));
      await backend.identity.users.markRemoved(a, admin.id, new Date());
      await expect(notes.runAs(caller, 'viewer', (tx) => tx.repos.notes.create(aNote(a)))).rejects.toBeInstanceOf(InvalidToken);
      await expect(notes.runAs({ ...caller, method: 'api_key' }, 'viewer', async () => undefined)).rejects.toBeInstanceOf(InvalidApiKey);
      expect(await list(a)).toEqual([]);
    });

    it('commits a note and its audit event together, and keeps neither when the work fails', async () => {
      const a = await aStoredTenant();
      const kept = aNote(a);
      await notes.run(a, async (tx) => {
        await tx.repos.notes.create(kept);
        await tx.audit.append(anEvent(a, 'note.created', kept.id));
      });
      const lost = aNote(a);
      await expect(notes.run(a, async (tx) => {
        await tx.repos.notes.create(lost);
        await tx.audit.append(anEvent(a, 'note.created', lost.id));
        throw new Error('the work failed after both writes');
      })).rejects.toThrow('the work failed after both writes');

      expect(await list(a)).toEqual([kept]);
      const trail = await backend.identity.auditEvents.list(a, { limit: 10 });
      expect(trail.map((event) => event.targetId)).toEqual([kept.id]);
    });

    it('refuses an audit event for another tenant than the run\'s, and rolls the run back', async () => {
      const a = await aStoredTenant();
      const b = await aStoredTenant();
      const note = aNote(a);
      await expect(notes.run(a, async (tx) => {
        await tx.repos.notes.create(note);
        await tx.audit.append(anEvent(b, 'note.created', note.id));
      })).rejects.toThrow(/audit event for tenant/);
      expect(await list(a)).toEqual([]);
      expect(await backend.identity.auditEvents.list(b, { limit: 10 })).toEqual([]);
    });

    it('keeps a tenant\'s notes from a repository that forgets the tenant in its WHERE clause', async () => {
      const a = await aStoredTenant();
      const b = await aStoredTenant();
      const ofA = aNote(a);
      const ofB = aNote(b);
      await notes.run(a, (tx) => tx.repos.notes.create(ofA));
      await notes.run(b, (tx) => tx.repos.notes.create(ofB));
      const buggy = backend.store.unitOfWork(FORGETFUL);

      const seen = await buggy.read(a, (repos) => repos.notes.listNewestFirst(a));
      expect(seen.map((note) => note.id)).toEqual([ofA.id]);
      const seenInRun = await buggy.run(a, (tx) => tx.repos.notes.listNewestFirst(a));
      expect(seenInRun.map((note) => note.id)).toEqual([ofA.id]);
      // Deleting B's note by id from a run of tenant A touches nothing.
      expect(await buggy.run(a, (tx) => tx.repos.notes.delete(a, ofB.id))).toBe(false);
      expect(await list(b)).toEqual([ofB]);
    });
  });
}
