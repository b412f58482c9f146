import type { Kysely } from 'kysely';
import type { Repositories } from '../../../application/ports/repositories';
import type { UnitOfWork } from '../../../application/ports/unit-of-work';
import { kyselyRepositories } from './kysely-repositories';
import type { DB } from './schema';
import { transactionScope } from './tenant-scope';

/**
 * Each run is one database transaction at the default READ COMMITTED level: the unique constraint
 * and the conditional invite update are what settle races, so no stricter level is needed.
 * Kysely commits when the work resolves, rolls back and rethrows when it rejects.
 */
export class KyselyUnitOfWork implements UnitOfWork {
  constructor(private readonly db: Kysely<DB>) {}

  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(kyselyRepositories(transactionScope(trx))));
  }
}
