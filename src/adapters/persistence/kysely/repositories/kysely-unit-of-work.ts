import type { Kysely } from 'kysely';
import type { Repositories } from '../../../../application/ports/repositories';
import type { UnitOfWork } from '../../../../application/ports/unit-of-work';
import type { CommittedChanges } from '../../storage';
import { changesMadeIn } from '../change-feed/credential-announcements';
import { kyselyRepositories } from './kysely-repositories';
import type { DB } from '../schema';
import { transactionScope } from '../driver/tenant-scope';
import type { TenantWalls } from '../driver/tenant-walls';

/**
 * Each run is one database transaction at the default READ COMMITTED level: the unique constraint
 * and the conditional invite update are what settle races, so no stricter level is needed.
 * Kysely commits when the work resolves, rolls back and rethrows when it rejects.
 *
 * Before committing, it reads which credential changes the database's triggers announced in the
 * transaction, and hands them to its listeners once the commit has succeeded: the instance that
 * made a change forgets it before answering; every instance (this one too) also hears the NOTIFY.
 */
export class KyselyUnitOfWork implements UnitOfWork {
  private readonly listeners = new Set<CommittedChanges>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly walls: TenantWalls,
  ) {}

  afterCommit(listener: CommittedChanges): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const { value, changes } = await this.db.transaction().execute(async (trx) => {
      const result = await work(kyselyRepositories(transactionScope(trx, this.walls)));
      return { value: result, changes: await changesMadeIn(trx) };
    });
    if (changes.length > 0) for (const listener of this.listeners) listener(changes);
    return value;
  }
}
