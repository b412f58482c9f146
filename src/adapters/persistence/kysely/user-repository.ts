import type { Kysely, Selectable } from 'kysely';
import type { UserRepository } from '../../../application/ports/repositories';
import { EmailAlreadyRegistered } from '../../../domain/errors';
import { isUuid } from '../../../domain/ids';
import type { User } from '../../../domain/user';
import { USERS_EMAIL_UNIQUE } from './migrations/0001-initial';
import { isUniqueViolation } from './pg-errors';
import type { DB, UsersTable } from './schema';
import { storedRole } from './stored-roles';

export class KyselyUserRepository implements UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The unique constraint, not an earlier lookup, decides between concurrent signups. Inside a
   * transaction the violation also aborts it: the caller must let the error end the unit of work.
   */
  async create(user: User): Promise<void> {
    try {
      await this.db
        .insertInto('users')
        .values({
          id: user.id,
          tenant_id: user.tenantId,
          email: user.email,
          password_hash: user.passwordHash,
          role: user.role,
          created_at: user.createdAt,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error, USERS_EMAIL_UNIQUE)) throw new EmailAlreadyRegistered();
      throw error;
    }
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findById(tenantId: string, userId: string): Promise<User | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    passwordHash: row.password_hash,
    role: storedRole(row.role),
    createdAt: row.created_at,
  };
}
