import { DomainError } from 'portcullis';

/**
 * The module's broken rules, one class each, with a stable code and no HTTP status (notes-module.ts
 * maps every code; a class added here without a status there does not compile).
 */
export class NoteNotFound extends DomainError {
  readonly code = 'NOTE_NOT_FOUND';
  constructor() { super('Note not found'); }
}
