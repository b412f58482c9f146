import { type Selectable, sql } from 'kysely';
import type { InviteRepository } from '../../../../application/ports/repositories';
import { isUuid } from '../../../../domain/ids';
import type { Invite, InviteSummary } from '../../../../domain/invite';
import type { InvitableRole } from '../../../../domain/role';
import { LOOKUP_INVITE_BY_TOKEN } from '../migrations/0002-tenant-walls';
import { LIST_PENDING_INVITES } from '../migrations/0009-tenant-wall-proofs';
import type { TenantInvitesTable } from '../schema';
import { storedInvitableRole } from './stored-roles';
import type { TenantScope } from '../driver/tenant-scope';

type InviteRow = Selectable<TenantInvitesTable>;

export class KyselyInviteRepository implements InviteRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(invite: Invite): Promise<void> {
    await this.scope.forTenant(invite.tenantId, (db) =>
      db
        .insertInto('tenant_invites')
        .values({
          id: invite.id,
          tenant_id: invite.tenantId,
          email: invite.email,
          role: invite.role,
          token: invite.token,
          invited_by: invite.invitedBy,
          expires_at: invite.expiresAt,
          accepted_at: invite.acceptedAt,
          created_at: invite.createdAt,
        })
        .execute(),
    );
  }

  /** Crosses the tenant walls through the one function that answers an exact token. */
  async findByToken(token: string): Promise<Invite | null> {
    const { rows } = await sql<InviteRow>`select * from ${sql.id(LOOKUP_INVITE_BY_TOKEN)}(${token})`.execute(this.scope.db);
    return rows[0] ? toInvite(rows[0]) : null;
  }

  async findById(tenantId: string, inviteId: string): Promise<Invite | null> {
    if (!isUuid(tenantId) || !isUuid(inviteId)) return null;
    const row = await this.scope.forTenant(tenantId, (db) =>
      db.selectFrom('tenant_invites').selectAll().where('id', '=', inviteId).where('tenant_id', '=', tenantId).executeTakeFirst(),
    );
    return row ? toInvite(row) : null;
  }

  /**
   * One conditional UPDATE: the row lock makes a concurrent second caller re-check the condition
   * after the first commits and match nothing, so exactly one signup consumes the invite.
   * RETURNING rather than the affected-row count, which the PGlite dialect leaves unset for 0 rows.
   */
  async markAccepted(tenantId: string, inviteId: string, now: Date): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(inviteId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) =>
      db
        .updateTable('tenant_invites')
        .set({ accepted_at: now })
        .where('id', '=', inviteId)
        .where('tenant_id', '=', tenantId)
        .where('accepted_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('id')
        .execute(),
    );
    return rows.length > 0;
  }

  /**
   * GET /invites: one statement through the function that checks the tenant's proof itself, so no
   * tenant setting goes first. Newest first; the id breaks ties between invites of the same instant.
   */
  async listPending(tenantId: string, now: Date): Promise<InviteSummary[]> {
    if (!isUuid(tenantId)) return [];
    const { rows } = await sql<Pick<InviteRow, 'id' | 'email' | 'role' | 'expires_at' | 'created_at'>>`
      select * from ${sql.id(LIST_PENDING_INVITES)}(${tenantId}::uuid, ${now}, ${this.scope.walls.tenantProof(tenantId)})`
      .execute(this.scope.db);
    return rows.map((row) => ({
      id: row.id, email: row.email, role: storedInvitableRole(row.role), expiresAt: row.expires_at, createdAt: row.created_at,
    }));
  }

  async deleteUnaccepted(tenantId: string, inviteId: string): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(inviteId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) =>
      db
        .deleteFrom('tenant_invites')
        .where('id', '=', inviteId)
        .where('tenant_id', '=', tenantId)
        .where('accepted_at', 'is', null)
        .returning('id')
        .execute(),
    );
    return rows.length > 0;
  }

  async deleteUnacceptedFrom(tenantId: string, invitedBy: string, roles: readonly InvitableRole[]): Promise<string[]> {
    if (!isUuid(tenantId) || !isUuid(invitedBy) || roles.length === 0) return [];
    const rows = await this.scope.forTenant(tenantId, (db) =>
      db
        .deleteFrom('tenant_invites')
        .where('tenant_id', '=', tenantId)
        .where('invited_by', '=', invitedBy)
        .where('accepted_at', 'is', null)
        .where('role', 'in', roles)
        .returning('id')
        .execute(),
    );
    return rows.map((row) => row.id);
  }
}

function toInvite(row: InviteRow): Invite {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    email: row.email,
    role: storedInvitableRole(row.role),
    token: row.token,
    invitedBy: row.invited_by,
    expiresAt: row.expires_at,
    acceptedAt: row.accepted_at,
    createdAt: row.created_at,
  };
}
