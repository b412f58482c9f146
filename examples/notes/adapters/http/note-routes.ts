import { json, route, type Route } from 'portcullis';
import type { CreateNote } from '../../application/create-note';
import type { DeleteNote } from '../../application/delete-note';
import type { ListNotes } from '../../application/list-notes';
import type { Note } from '../../domain/note';
import { CreateNoteBody } from './create-note-body';

export interface NoteUseCases {
  readonly createNote: CreateNote;
  readonly listNotes: ListNotes;
  readonly deleteNote: DeleteNote;
}

export const NOTES_PATH = '/api/v1/notes';

function noteJson(note: Note) {
  return { id: note.id, title: note.title, body: note.body, created_by: note.createdBy, created_at: note.createdAt.toISOString() };
}

/**
 * The notes routes, each declared once: method, path, group (protected: the platform puts
 * authentication in front of each), minimum role (checked before the body is read), body DTO and
 * handler. The use-cases check the role again.
 */
export function noteRoutes(useCases: NoteUseCases): Route[] {
  return [
    route({
      method: 'post', path: NOTES_PATH, group: 'protected', role: 'member', body: CreateNoteBody,
      handle: async ({ principal, body, origin }) =>
        json(201, noteJson(await useCases.createNote.execute(principal, { title: body.title, body: body.body }, origin))),
    }),
    route({
      method: 'get', path: NOTES_PATH, group: 'protected',
      handle: async ({ principal }) => json(200, { notes: (await useCases.listNotes.execute(principal)).map(noteJson) }),
    }),
    route({
      method: 'delete', path: `${NOTES_PATH}/:id`, group: 'protected', role: 'admin',
      handle: async ({ principal, params, origin }) => {
        await useCases.deleteNote.execute(principal, params['id']!, origin);
        return json(200, { deleted: true });
      },
    }),
  ];
}
