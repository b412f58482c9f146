import type { Principal, TenantUnitOfWork } from 'portcullis';
import type { Note } from '../domain/note';
import type { NoteRepositories } from './note-repository';

/** Any authenticated caller: the caller's tenant's notes, newest first. */
export class ListNotes {
  constructor(private readonly deps: { readonly unitOfWork: TenantUnitOfWork<NoteRepositories> }) {}

  execute(caller: Principal): Promise<Note[]> {
    return this.deps.unitOfWork.read(caller.tenantId, (repos) => repos.notes.listNewestFirst(caller.tenantId));
  }
}
