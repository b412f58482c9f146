import { type Kysely, type Selectable, sql } from 'kysely';
import type { PasswordHashChange, UserAuthState, UserRepository } from '../../../../application/ports/repositories';
import { EmailAlreadyRegistered } from '../../../../domain/errors';
import { isUuid } from '../../../../domain/ids';
import type { Role } from '../../../../domain/role';
import type { User } from '../../../../domain/user';
import { USERS_EMAIL_UNIQUE } from '../migrations/0001-initial';
import { LOOKUP_USER_BY_EMAIL } from '../migrations/0002-tenant-walls';
import { LOOKUP_MEMBER_AUTH_STATE } from '../migrations/0008-credential-check-statements';
import { LIST_MEMBERS } from '../migrations/0012-tenant-list-reads';
import { isUniqueViolation } from '../driver/pg-errors';
import type { DB, UsersTable } from '../schema';
import { storedRole } from './stored-roles';
import type { TenantScope } from '../driver/tenant-scope';

type UserRow = Omit<Selectable<UsersTable>, 'removed_at' | 'email_verified_at' | 'suspended_at'>;

const USER_COLUMNS = ['id', 'tenant_id', 'email', 'password_hash', 'role', 'created_at', 'auth_version'] as const;

/** Every read and write below names a member: a removed user's row is kept but never matched. */
function members(db: Kysely<DB>, tenantId: string) {
  return db.selectFrom('users').where('tenant_id', '=', tenantId).where('removed_at', 'is', null);
}

export class KyselyUserRepository implements UserRepository {
  constructor(private readonly scope: TenantScope) {}

  /**
   * The unique index, not an earlier lookup, decides between concurrent signups (uniqueness is
   * checked across every tenant; row security does not hide duplicates). Inside a transaction
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
            auth_version: user.authVersion,
            removed_at: null,
          })
          .execute(),
      );
    } catch (error) {
      if (isUniqueViolation(error, USERS_EMAIL_UNIQUE)) throw new EmailAlreadyRegistered();
      throw error;
    }
  }

  /** Crosses the tenant walls through the one function that answers an exact e-mail, with the e-mail's proof. */
  async findByEmail(email: string): Promise<User | null> {
    const { rows } = await sql<UserRow>`
      select * from ${sql.id(LOOKUP_USER_BY_EMAIL)}(${email}, ${this.scope.walls.emailProof(email)})`.execute(this.scope.db);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findInTenantByEmail(tenantId: string, email: string): Promise<User | null> {
    if (!isUuid(tenantId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select(USER_COLUMNS).where('email', '=', email).executeTakeFirst(),
    );
    return row ? toUser(row) : null;
  }

  async findById(tenantId: string, userId: string): Promise<User | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst(),
    );
    return row ? toUser(row) : null;
  }

  /**
   * On the credential check's path when memory does not answer: one statement through the function
   * that reads that tenant's member only, with no transaction or tenant setting of its own.
   */
  async findAuthState(tenantId: string, userId: string): Promise<UserAuthState | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const { rows } = await sql<{ role: string; auth_version: number }>`
      select * from ${sql.id(LOOKUP_MEMBER_AUTH_STATE)}(${tenantId}::uuid, ${userId}::uuid, ${this.scope.walls.tenantProof(tenantId)})`
      .execute(this.scope.db);
    const row = rows[0];
    return row ? { tenantId, userId, role: storedRole(row.role), authVersion: row.auth_version } : null;
  }

  /**
   * FOR SHARE: a role change, password change or removal (each an UPDATE of this row) waits for the
   * holder's transaction, while other holders and foreign-key checks of new rows naming the member
   * do not. Membership changes lock the tenant row FOR NO KEY UPDATE, which a new row's foreign-key
   * check does not wait for, so a holder that then inserts cannot deadlock with one.
   */
  async holdAuthState(tenantId: string, userId: string): Promise<UserAuthState | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select(['role', 'auth_version']).where('id', '=', userId).where('suspended_at', 'is', null).forShare().executeTakeFirst(),
    );
    return row ? { tenantId, userId, role: storedRole(row.role), authVersion: row.auth_version } : null;
  }

  /** One statement, through the function that checks the tenant's proof itself (migration 0012). */
  async listMembers(tenantId: string): Promise<User[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await sql<UserRow>`
      select * from ${sql.id(LIST_MEMBERS)}(${tenantId}::uuid, ${this.scope.walls.tenantProof(tenantId)})`.execute(this.scope.db);
    return rows.map(toUser);
  }

  async countOwners(tenantId: string): Promise<number> {
    if (!isUuid(tenantId)) return 0;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select((eb) => eb.fn.countAll<string>().as('owners')).where('role', '=', 'owner').where('suspended_at', 'is', null)
        .executeTakeFirstOrThrow(),
    );
    return Number(row.owners);
  }

  async updatePasswordHash(tenantId: string, userId: string, { from, to }: PasswordHashChange): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.updateTable('users').set({ password_hash: to })
        .where('id', '=', userId).where('tenant_id', '=', tenantId).where('removed_at', 'is', null)
        .where('password_hash', '=', from)
        .returning('id')
        .executeTakeFirst(),
    );
    return row !== undefined;
  }

  async changeRole(tenantId: string, userId: string, role: Role): Promise<boolean> {
    return (await this.endSessions(tenantId, userId, { role })) !== null;
  }

  async raiseAuthVersion(tenantId: string, userId: string): Promise<boolean> {
    return (await this.endSessions(tenantId, userId, {})) !== null;
  }

  async changePassword(tenantId: string, userId: string, { from, to }: PasswordHashChange): Promise<User | null> {
    return this.endSessions(tenantId, userId, { password_hash: to }, from);
  }

  async markRemoved(tenantId: string, userId: string, at: Date): Promise<boolean> {
    return (await this.endSessions(tenantId, userId, { removed_at: at })) !== null;
  }

  /** The condition on suspended_at makes a second suspension (or restore) change nothing, so its caller records nothing. */
  async suspend(tenantId: string, userId: string, at: Date): Promise<boolean> {
    return (await this.endSessions(tenantId, userId, { suspended_at: at }, undefined, 'not suspended')) !== null;
  }

  async restore(tenantId: string, userId: string): Promise<boolean> {
    return (await this.endSessions(tenantId, userId, { suspended_at: null }, undefined, 'suspended')) !== null;
  }

  async suspendedAt(tenantId: string, userId: string): Promise<Date | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select('suspended_at').where('id', '=', userId).executeTakeFirst(),
    );
    return row?.suspended_at ?? null;
  }

  async suspensions(tenantId: string): Promise<ReadonlyMap<string, Date>> {
    if (!isUuid(tenantId)) return new Map();
    const rows = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select(['id', 'suspended_at']).where('suspended_at', 'is not', null).execute(),
    );
    return new Map(rows.map((row) => [row.id, row.suspended_at!]));
  }

  async markEmailVerified(tenantId: string, userId: string, email: string, at: Date): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId)) return false;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.updateTable('users').set((eb) => ({ email_verified_at: eb.fn.coalesce('email_verified_at', sql<Date>`${at}::timestamptz`) }))
        .where('id', '=', userId).where('tenant_id', '=', tenantId).where('removed_at', 'is', null)
        .where('email', '=', email)
        .returning('id')
        .executeTakeFirst(),
    );
    return row !== undefined;
  }

  async emailVerifiedAt(tenantId: string, userId: string): Promise<Date | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      members(db, tenantId).select('email_verified_at').where('id', '=', userId).executeTakeFirst(),
    );
    return row?.email_verified_at ?? null;
  }

  async changeEmail(tenantId: string, userId: string, { from, to }: { readonly from: string; readonly to: string }, verifiedAt: Date): Promise<User | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    try {
      const row = await this.scope.forTenant(tenantId, (db) =>
        db.updateTable('users')
          .set((eb) => ({ email: to, email_verified_at: verifiedAt, auth_version: eb('auth_version', '+', 1) }))
          .where('id', '=', userId).where('tenant_id', '=', tenantId).where('removed_at', 'is', null)
          .where('email', '=', from)
          .returning(USER_COLUMNS)
          .executeTakeFirst(),
      );
      return row ? toUser(row) : null;
    } catch (error) {
      if (isUniqueViolation(error, USERS_EMAIL_UNIQUE)) throw new EmailAlreadyRegistered();
      throw error;
    }
  }

  /**
   * One UPDATE that makes the change and raises the auth version (the database announces it: see
   * migration 0005), and returns the member as it now stands; with `whileHash`, only while that hash
   * is stored. RETURNING rather than the affected-row count, which PGlite leaves unset for 0 rows.
   */
  private async endSessions(
    tenantId: string,
    userId: string,
    change: { role?: Role; password_hash?: string; removed_at?: Date; suspended_at?: Date | null },
    whileHash?: string,
    whileSuspension?: 'suspended' | 'not suspended',
  ): Promise<User | null> {
    if (!isUuid(tenantId) || !isUuid(userId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) => {
      let update = db
        .updateTable('users')
        .set((eb) => ({ ...change, auth_version: eb('auth_version', '+', 1) }))
        .where('id', '=', userId)
        .where('tenant_id', '=', tenantId)
        .where('removed_at', 'is', null);
      if (whileHash !== undefined) update = update.where('password_hash', '=', whileHash);
      if (whileSuspension !== undefined) update = update.where('suspended_at', whileSuspension === 'suspended' ? 'is not' : 'is', null);
      return update.returning(USER_COLUMNS).executeTakeFirst();
    });
    return row ? toUser(row) : null;
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
    authVersion: row.auth_version,
  };
}
