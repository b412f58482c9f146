import type { Kysely } from 'kysely';
import type { Repositories } from '../../../application/ports/repositories';
import { KyselyApiKeyRepository } from './api-key-repository';
import { KyselyInviteRepository } from './invite-repository';
import type { DB } from './schema';
import { KyselyTenantRepository } from './tenant-repository';
import { KyselyUserRepository } from './user-repository';

/** The repositories over one handle: the whole database, or one transaction (a Transaction<DB> is a Kysely<DB>). */
export function kyselyRepositories(db: Kysely<DB>): Repositories {
  return {
    tenants: new KyselyTenantRepository(db),
    users: new KyselyUserRepository(db),
    apiKeys: new KyselyApiKeyRepository(db),
    invites: new KyselyInviteRepository(db),
  };
}
