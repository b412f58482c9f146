import type { Note } from '../domain/note';

/**
 * The module's storage port. Every method names its tenant (the first wall); the platform's
 * tenant-scoped unit of work puts the database's wall behind it (the second).
 */
export interface NoteRepository {
  /** Inserts a new note. Ids are fresh, so a conflict is a storage failure and is thrown as is. */
  create(note: Note): Promise<void>;
  /** The tenant's notes, newest first (created_at, then id, descending). */
  listNewestFirst(tenantId: string): Promise<Note[]>;
  /** Deletes the tenant's note; false when the tenant has no note with that id. */
  delete(tenantId: string, noteId: string): Promise<boolean>;
}

/** What a unit of work hands the notes use-cases. */
export interface NoteRepositories {
  readonly notes: NoteRepository;
}
