import {
  assertRoleAtLeast, normalizeVisibleText, type Principal, type AuditTrail, type Clock, type IdGenerator, type RequestOrigin, type TenantUnitOfWork, UNKNOWN_ORIGIN,
} from 'portcullis';
import type { Note } from '../domain/note';
import type { NoteRepositories } from './note-repository';

export interface CreateNoteDeps {
  readonly unitOfWork: TenantUnitOfWork<NoteRepositories>;
  readonly trail: AuditTrail;
  readonly ids: IdGenerator;
  readonly clock: Clock;
}

export interface CreateNoteInput {
  readonly title: string;
  readonly body?: string | undefined;
}

/** Member or higher. The note and its audit event commit together. */
export class CreateNote {
  constructor(private readonly deps: CreateNoteDeps) {}

  async execute(caller: Principal, input: CreateNoteInput, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<Note> {
    assertRoleAtLeast(caller.role, 'member');
    // Ordered ids: notes of one millisecond keep the order they were written in.
    const note: Note = {
      id: this.deps.ids.newOrderedId(),
      tenantId: caller.tenantId,
      title: normalizeVisibleText(input.title),
      body: input.body ?? '',
      createdBy: caller.userId,
      createdAt: this.deps.clock.now(),
    };
    await this.deps.unitOfWork.runAs(caller, 'member', async (tx) => {
      await tx.repos.notes.create(note);
      await tx.audit.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'note.created', targetId: note.id,
      }));
    });
    return note;
  }
}
