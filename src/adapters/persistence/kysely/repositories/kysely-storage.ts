import type { Kysely } from 'kysely';
import type { Storage } from '../../storage';
import { KyselyCredentialChangeLog } from '../change-feed/kysely-credential-change-log';
import { kyselyRepositories } from './kysely-repositories';
import { KyselyUnitOfWork } from './kysely-unit-of-work';
import type { DB } from '../schema';
import { standaloneScope } from '../driver/tenant-scope';
import type { TenantWalls } from '../driver/tenant-walls';

/**
 * A Storage over an open, migrated database whose queries run as the app role (serving-database.ts),
 * with the proofs its walls want, so the tenant walls hold. On PGlite, which has one connection,
 * code inside `unitOfWork.run` must use the repositories it is handed: `repos` would wait for the
 * transaction to end, and so forever.
 */
export function createKyselyStorage(database: { readonly db: Kysely<DB>; readonly walls: TenantWalls }, close: () => Promise<void>): Storage {
  const { db, walls } = database;
  const unitOfWork = new KyselyUnitOfWork(db, walls);
  return {
    repos: kyselyRepositories(standaloneScope(db, walls)),
    unitOfWork,
    afterCommit: (listener) => unitOfWork.afterCommit(listener),
    changeLog: new KyselyCredentialChangeLog(db, walls),
    close,
  };
}
