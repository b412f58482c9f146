import type { Kysely, Selectable } from 'kysely';
import type { NoteRepository } from '../../application/note-repository';
import type { Note } from '../../domain/note';

/** The module's tables as Kysely sees them. */
export interface NotesDB {
  notes: NotesTable;
}

export interface NotesTable {
  id: string;
  tenant_id: string;
  title: string;
  body: string;
  created_by: string;
  created_at: Date;
}

function toNote(row: Selectable<NotesTable>): Note {
  return { id: row.id, tenantId: row.tenant_id, title: row.title, body: row.body, createdBy: row.created_by, createdAt: row.created_at };
}

/**
 * Over the handle the platform's unit of work gives it: a transaction (or connection) already
 * bound to the tenant, working as the service's role, so the table's policy confines every statement.
 */
export class KyselyNoteRepository implements NoteRepository {
  constructor(private readonly db: Kysely<NotesDB>) {}

  async create(note: Note): Promise<void> {
    await this.db.insertInto('notes').values({
      id: note.id, tenant_id: note.tenantId, title: note.title, body: note.body, created_by: note.createdBy, created_at: note.createdAt,
    }).execute();
  }

  async listNewestFirst(tenantId: string): Promise<Note[]> {
    const rows = await this.db.selectFrom('notes').selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at', 'desc').orderBy('id', 'desc')
      .execute();
    return rows.map(toNote);
  }

  async delete(tenantId: string, noteId: string): Promise<boolean> {
    const deleted = await this.db.deleteFrom('notes').where('tenant_id', '=', tenantId).where('id', '=', noteId).executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }
}
