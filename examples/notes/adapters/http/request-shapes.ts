import type { RequestShapes } from 'portcullis';
import { CreateNoteBody } from './create-note-body';

/** The request schemas of examples/notes/openapi.yaml, derived from these DTOs (`npm run openapi:requests`). */
export const NOTES_REQUEST_SHAPES: RequestShapes = {
  bodies: { CreateNoteRequest: CreateNoteBody },
  queries: {},
};
