import { type Selectable, sql } from 'kysely';
import type { SessionRepository, SessionState, SessionUse } from '../../../../application/ports/repositories';
import { isUuid } from '../../../../domain/ids';
import { type Session, SESSION_END_REASONS, type SessionEndReason, type SessionEnding } from '../../../../domain/session';
import { LOOKUP_SESSION, RECORD_SESSION_USES } from '../migrations/0014-sessions';
import type { SessionsTable } from '../schema';
import { type Amr, isAmrList } from '../../../../domain/second-factor';
import type { TenantScope } from '../driver/tenant-scope';

function storedReason(value: string | null): SessionEndReason | null {
  if (value === null) return null;
  if (!(SESSION_END_REASONS as readonly string[]).includes(value)) throw new Error(`sessions holds an unknown end reason: ${value}`);
  return value as SessionEndReason;
}

function storedAmr(value: unknown): Amr[] {
  if (!isAmrList(value)) throw new Error(`sessions holds an unknown amr: ${String(value)}`);
  return value;
}

function toSession(row: Selectable<SessionsTable>): Session {
  return {
    id: row.id, tenantId: row.tenant_id, userId: row.user_id, createdAt: row.created_at, lastSeenAt: row.last_seen_at,
    authenticatedAt: row.authenticated_at, userAgent: row.user_agent, ip: row.ip, endedAt: row.ended_at, endedBy: row.ended_by,
    endReason: storedReason(row.end_reason), amr: storedAmr(row.amr),
  };
}

function ended(ending: SessionEnding) {
  return { ended_at: ending.at, ended_by: ending.by, end_reason: ending.reason };
}

/** Sessions behind the tenant wall (migration 0014); the credential check and the batch of uses cross it by definer functions. */
export class KyselySessionRepository implements SessionRepository {
  constructor(private readonly scope: TenantScope) {}

  async create(session: Session): Promise<void> {
    await this.scope.forTenant(session.tenantId, (db) => db.insertInto('sessions').values({
      id: session.id, tenant_id: session.tenantId, user_id: session.userId, created_at: session.createdAt,
      last_seen_at: session.lastSeenAt, authenticated_at: session.authenticatedAt, user_agent: session.userAgent, ip: session.ip, amr: [...session.amr],
      ...(session.endedAt && session.endReason ? ended({ at: session.endedAt, by: session.endedBy, reason: session.endReason }) : {}),
    }).execute());
  }

  /** One statement, no transaction of its own: the credential check's miss (migration 0014). */
  async findLive(tenantId: string, sessionId: string): Promise<SessionState | null> {
    if (!isUuid(tenantId) || !isUuid(sessionId)) return null;
    const { rows } = await sql<{ user_id: string; last_seen_at: Date; authenticated_at: Date }>`
      select * from ${sql.id(LOOKUP_SESSION)}(${tenantId}::uuid, ${sessionId}::uuid, ${this.scope.walls.tenantProof(tenantId)})`
      .execute(this.scope.db);
    const row = rows[0];
    return row ? {
      sessionId: sessionId.toLowerCase(), tenantId, userId: row.user_id, lastSeenAt: new Date(row.last_seen_at), authenticatedAt: new Date(row.authenticated_at),
    } : null;
  }

  async listLive(tenantId: string, userId: string): Promise<Session[]> {
    if (!isUuid(tenantId) || !isUuid(userId)) return [];
    const rows = await this.scope.forTenant(tenantId, (db) => db.selectFrom('sessions').selectAll()
      .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('ended_at', 'is', null)
      .orderBy('created_at', 'desc').orderBy('id', 'desc').execute());
    return rows.map(toSession);
  }

  async end(tenantId: string, userId: string, sessionId: string, ending: SessionEnding): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(sessionId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('sessions').set(ended(ending))
      .where('id', '=', sessionId).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('ended_at', 'is', null)
      .returning('id').execute());
    return rows.length > 0;
  }

  async endAllOf(tenantId: string, userId: string, ending: SessionEnding, except?: string): Promise<number> {
    if (!isUuid(tenantId) || !isUuid(userId)) return 0;
    const rows = await this.scope.forTenant(tenantId, (db) => {
      let update = db.updateTable('sessions').set(ended(ending))
        .where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('ended_at', 'is', null);
      if (except !== undefined && isUuid(except)) update = update.where('id', '<>', except);
      return update.returning('id').execute();
    });
    return rows.length;
  }

  async renewAuthentication(tenantId: string, userId: string, sessionId: string, at: Date): Promise<boolean> {
    if (!isUuid(tenantId) || !isUuid(userId) || !isUuid(sessionId)) return false;
    const rows = await this.scope.forTenant(tenantId, (db) => db.updateTable('sessions').set({ authenticated_at: at })
      .where('id', '=', sessionId).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('ended_at', 'is', null)
      .returning('id').execute());
    return rows.length > 0;
  }

  /** One statement for the whole batch, each session matched with its own tenant, proven (as key usage). */
  async markSeen(uses: readonly SessionUse[]): Promise<void> {
    const valid = uses.filter((use) => isUuid(use.tenantId) && isUuid(use.sessionId));
    if (valid.length === 0) return;
    const ids = valid.map((use) => use.sessionId);
    const tenantIds = valid.map((use) => use.tenantId);
    const seenAt = valid.map((use) => use.at.toISOString());
    const proofs = valid.map((use) => this.scope.walls.tenantProof(use.tenantId));
    await sql`
      select ${sql.id(RECORD_SESSION_USES)}(${ids}::uuid[], ${tenantIds}::uuid[], ${seenAt}::timestamptz[], ${proofs}::text[])`
      .execute(this.scope.db);
  }
}
