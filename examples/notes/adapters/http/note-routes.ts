import {
  jsonBody, originOf, principalOf, requireRole, type RouteDefinition, sendJson, validateBody,
} from '../../../../src/adapters/http/modules/http-kit';
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
 * The protected group's routes: the platform puts authentication in front of each one. The role
 * guard comes before the body is read, as on identity's routes; the use-cases check the role again.
 */
export function noteRoutes(useCases: NoteUseCases): RouteDefinition[] {
  return [
    {
      method: 'post',
      path: NOTES_PATH,
      handlers: [requireRole('member'), jsonBody(), validateBody(CreateNoteBody), async (req, res) => {
        const body = req.body as CreateNoteBody;
        const note = await useCases.createNote.execute(principalOf(res), { title: body.title, body: body.body }, originOf(req));
        sendJson(res, 201, noteJson(note));
      }],
    },
    {
      // A GET without path parameters whose handlers are NodeHandlers: served on the direct path too.
      method: 'get',
      path: NOTES_PATH,
      direct: true,
      handlers: [async (_req, res) => {
        const notes = await useCases.listNotes.execute(principalOf(res));
        sendJson(res, 200, { notes: notes.map(noteJson) });
      }],
    },
    {
      method: 'delete',
      path: `${NOTES_PATH}/:id`,
      handlers: [requireRole('admin'), async (req, res) => {
        await useCases.deleteNote.execute(principalOf(res), String(req.params['id']), originOf(req));
        sendJson(res, 200, { deleted: true });
      }],
    },
  ];
}
