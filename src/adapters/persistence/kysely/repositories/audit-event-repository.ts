import { type Selectable, sql } from 'kysely';
import type { AuditEventRepository, AuditQuery } from '../../../../application/ports/audit-events';
import { AUDIT_ACTOR_METHODS, type AuditDetails, type AuditEvent, isAuditActionName } from '../../../../domain/audit-event';
import { isUuid } from '../../../../domain/ids';
import { NO_TENANT } from '../migrations/0009-tenant-wall-proofs';
import type { AuditEventsTable } from '../schema';
import type { TenantScope } from '../driver/tenant-scope';

type AuditRow = Selectable<AuditEventsTable>;

/** The row an event is stored as. */
export function auditRow(event: AuditEvent) {
  return {
    id: event.id,
    tenant_id: event.tenantId,
    actor_user_id: event.actorUserId,
    actor_method: event.actorMethod,
    action: event.action,
    target_id: event.targetId,
    client_address: event.clientAddress,
    user_agent: event.userAgent,
    request_id: event.requestId,
    occurred_at: event.occurredAt,
    // Serialised here so both drivers store the same text; jsonb parses it.
    details: sql<AuditDetails>`${JSON.stringify(event.details)}::jsonb`,
  };
}

export class KyselyAuditEventRepository implements AuditEventRepository {
  constructor(private readonly scope: TenantScope) {}

  async append(event: AuditEvent): Promise<void> {
    const row = auditRow(event);
    // A tenant-less event (a failed login for an unknown e-mail) is written under NO_TENANT's proof,
    // so that nobody without the service's key can add one either.
    await this.scope.forTenant(event.tenantId ?? NO_TENANT, (db) => db.insertInto('audit_events').values(row).execute());
  }

  async list(tenantId: string, query: AuditQuery): Promise<AuditEvent[]> {
    if (!isUuid(tenantId)) return [];
    if (query.actorUserId !== undefined && !isUuid(query.actorUserId)) return [];
    const { after, action, actorUserId } = query;
    const rows = await this.scope.forTenant(tenantId, (db) => {
      let select = db.selectFrom('audit_events').selectAll().where('tenant_id', '=', tenantId);
      if (action !== undefined) select = select.where('action', '=', action);
      if (actorUserId !== undefined) select = select.where('actor_user_id', '=', actorUserId.toLowerCase());
      if (after !== undefined) {
        // Row comparison: strictly older, or as old with a smaller id; matches the index order.
        select = select.where(sql<boolean>`(occurred_at, id) < (${after.occurredAt}, ${after.id}::uuid)`);
      }
      return select.orderBy('occurred_at', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    });
    return rows.map(toAuditEvent);
  }
}

function toAuditEvent(row: AuditRow): AuditEvent {
  if (!isAuditActionName(row.action)) throw new Error(`audit_events holds a malformed action: ${row.action}`);
  const method = AUDIT_ACTOR_METHODS.find((known) => known === row.actor_method);
  if (method === undefined) throw new Error(`unknown actor_method: ${row.actor_method}`);
  return {
    id: row.id,
    tenantId: row.tenant_id,
    actorUserId: row.actor_user_id,
    actorMethod: method,
    action: row.action,
    targetId: row.target_id,
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    requestId: row.request_id,
    occurredAt: row.occurred_at,
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as AuditDetails,
  };
}
