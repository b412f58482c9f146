import type { Kysely } from 'kysely';
import type { Storage } from '../storage';
import { kyselyRepositories } from './kysely-repositories';
import { KyselyUnitOfWork } from './kysely-unit-of-work';
import type { DB } from './schema';

/**
 * A Storage over an open (and migrated) database. On PGlite, which has one connection, code inside
 * `unitOfWork.run` must use the repositories it is handed: `repos` would wait for the transaction
 * to end, and so wait forever.
 */
export function createKyselyStorage(db: Kysely<DB>, close: () => Promise<void>): Storage {
  return { repos: kyselyRepositories(db), unitOfWork: new KyselyUnitOfWork(db), close };
}
