import type { Kysely } from 'kysely';
import type { ModuleStorageAdapters } from 'portcullis';
import type { NoteRepositories } from '../../application/note-repository';
import { KyselyNoteRepository, type NotesDB } from './kysely-note-repository';
import { memoryNoteRepository, type NotesState } from './memory-note-repository';

/** The module's repositories over each backend; the platform picks the one the service runs on. */
export const NOTES_STORAGE: ModuleStorageAdapters<NoteRepositories, NotesState> = {
  kysely: (db: Kysely<NotesDB>) => ({ notes: new KyselyNoteRepository(db) }),
  memory: {
    name: 'notes',
    empty: () => new Map(),
    copy: (state) => new Map(state), // notes are immutable values
    repositories: (state) => ({ notes: memoryNoteRepository(state) }),
  },
};
