import type { Kysely } from 'kysely';
import type { Storage } from '../../storage';
import { KyselyCredentialChangeLog } from '../change-feed/kysely-credential-change-log';
import { kyselyRepositories } from './kysely-repositories';
import { KyselyUnitOfWork } from './kysely-unit-of-work';
import type { DB } from '../schema';
import { standaloneScope } from '../driver/tenant-scope';

/**
 * A Storage over an open, migrated database whose queries run as the app role (serving-database.ts),
 * so the tenant walls hold. On PGlite, which has one connection, code inside `unitOfWork.run` must
 * use the repositories it is handed: `repos` would wait for the transaction to end, and so forever.
 */
export function createKyselyStorage(db: Kysely<DB>, close: () => Promise<void>): Storage {
  const unitOfWork = new KyselyUnitOfWork(db);
  return {
    repos: kyselyRepositories(standaloneScope(db)),
    unitOfWork,
    afterCommit: (listener) => unitOfWork.afterCommit(listener),
    changeLog: new KyselyCredentialChangeLog(db),
    close,
  };
}
