import { type Selectable, sql } from 'kysely';
import type { UserRepository } from '../../../application/ports/repositories';
import { EmailAlreadyRegistered } from '../../../domain/errors';
import { isUuid } from '../../../domain/ids';
import type { User } from '../../../domain/user';
import { USERS_EMAIL_UNIQUE } from './migrations/0001-initial';
import { LOOKUP_USER_BY_EMAIL } from './migrations/0002-tenant-walls';
import { isUniqueViolation } from './pg-errors';
import type { UsersTable } from './schema';
import { storedRole } from './stored-roles';
import type { TenantScope } from './tenant-scope';

type UserRow = Selectable<UsersTable>;

export class KyselyUserRepository implements UserRepository {
  constructor(private readonly scope: TenantScope) {}

  /**
   * The unique constraint, not an earlier lookup, decides between concurrent signups (uniqueness
   * is checked across every tenant; row security does not hide duplicates). Inside a transaction
   * the violation also aborts it: the caller must let the error end the unit of work.
   */
  async create(user: User): Promise<void> {
    try {
      await this.scope.forTenant(user.tenantId, (db) =>
        db
          .insertInto('users')
          .values({
            id: user.id,
            tenant_id: user.tenantId,
            email: user.email,
            password_hash: user.passwordHash,
            role: user.role,
            created_at: user.createdAt,
          })
          .execute(),
      );
    } catch (error) {
      if (isUniqueViolation(error, USERS_EMAIL_UNIQUE)) throw new EmailAlreadyRegistered();
      throw error;
    }
  }

  /** Crosses the tenant walls through the one function that answers an exact e-mail. */
  async findByEmail(email: string): Promise<User | null> {
    const { rows } = await sql<UserRow>`select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${email})`.execute(this.scope.db);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findById(tenantId: string, userId: string): Promise<User | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('users').selectAll().where('id', '=', userId).where('tenant_id', '=', tenantId).executeTakeFirst(),
    );
    return row ? toUser(row) : null;
  }

  async updatePasswordHash(tenantId: string, userId: string, passwordHash: string): Promise<void> {
    if (!isUuid(tenantId) || !isUuid(userId)) return;
    await this.scope.forTenant(tenantId, (db) =>
      db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).where('tenant_id', '=', tenantId).execute(),
    );
  }
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    passwordHash: row.password_hash,
    role: storedRole(row.role),
    createdAt: row.created_at,
  };
}
