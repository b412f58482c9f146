import type { ErrorCodesOf, PortcullisModule } from 'portcullis';
import { CreateNote } from './application/create-note';
import { DeleteNote } from './application/delete-note';
import { ListNotes } from './application/list-notes';
import type * as noteErrors from './domain/errors';
import { noteRoutes } from './adapters/http/note-routes';
import * as initial from './adapters/persistence/migrations/0001-notes';
import { NOTES_STORAGE } from './adapters/persistence/notes-storage';

type NoteErrorCode = ErrorCodesOf<typeof noteErrors>;

/**
 * The notes module: everything the platform needs to serve it, in one object. Its composition
 * root: the use-cases are built here from what the platform hands it, and nothing else.
 */
export const notesModule: PortcullisModule<NoteErrorCode> = {
  name: 'notes',
  migrations: { '0001-notes': initial },
  apiReference: 'examples/notes/openapi.yaml',
  auditActions: ['note.created', 'note.deleted'],
  errors: {
    NOTE_NOT_FOUND: { status: 404, notInTenant: 'note' },
  },
  build({ store, clock, ids, trail }) {
    const unitOfWork = store.unitOfWork(NOTES_STORAGE);
    return noteRoutes({
      createNote: new CreateNote({ unitOfWork, trail, ids, clock }),
      listNotes: new ListNotes({ unitOfWork }),
      deleteNote: new DeleteNote({ unitOfWork, trail }),
    });
  },
};
