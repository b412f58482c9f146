import type { NoteRepository } from '../../application/note-repository';
import type { Note } from '../../domain/note';

/** One tenant's notes, by id: the memory backend keeps one of these per tenant. */
export type NotesState = Map<string, Note>;

/** Newest first, ties by id descending: the order the SQL adapter's ORDER BY gives. */
function newestFirst(a: Note, b: Note): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A real implementation over a tenant's state (the committed one, or a run's copy), not a mock. */
export function memoryNoteRepository(state: NotesState): NoteRepository {
  return {
    async create(note) {
      if (state.has(note.id)) throw new Error('duplicate key value violates unique constraint "notes_pkey"');
      state.set(note.id, note);
    },
    async listNewestFirst(tenantId) {
      return [...state.values()].filter((note) => note.tenantId === tenantId).sort(newestFirst);
    },
    async delete(tenantId, noteId) {
      const note = state.get(noteId);
      if (!note || note.tenantId !== tenantId) return false;
      return state.delete(noteId);
    },
  };
}
