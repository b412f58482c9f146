import {
  assertRoleAtLeast, isUuid, type Principal, type AuditTrail, type RequestOrigin, type TenantUnitOfWork, UNKNOWN_ORIGIN,
} from 'portcullis';
import { NoteNotFound } from '../domain/errors';
import type { NoteRepositories } from './note-repository';

export interface DeleteNoteDeps {
  readonly unitOfWork: TenantUnitOfWork<NoteRepositories>;
  readonly trail: AuditTrail;
}

/** Admin or higher. Another tenant's, an unknown and a malformed id are all "not found". */
export class DeleteNote {
  constructor(private readonly deps: DeleteNoteDeps) {}

  async execute(caller: Principal, noteId: string, origin: RequestOrigin = UNKNOWN_ORIGIN): Promise<void> {
    assertRoleAtLeast(caller.role, 'admin');
    // Not a UUID: no note has it, and it never reaches the database as a type error.
    if (!isUuid(noteId)) throw new NoteNotFound();
    const id = noteId.toLowerCase();
    // As the caller, who must still be an admin when the deletion commits (see runAs).
    const deleted = await this.deps.unitOfWork.runAs(caller, 'admin', async (tx) => {
      if (!(await tx.repos.notes.delete(caller.tenantId, id))) return false;
      await tx.audit.append(this.deps.trail.event(origin, {
        tenantId: caller.tenantId, actor: caller, action: 'note.deleted', targetId: id,
      }));
      return true;
    });
    if (!deleted) throw new NoteNotFound();
  }
}
