import type { AuditAction, AuditEvent, ModuleAuditAction } from '../../domain/audit-event';

/** A position in the newest-first order: the last event of the previous page. */
export interface AuditPosition {
  readonly occurredAt: Date;
  readonly id: string;
}

export interface AuditQuery {
  readonly limit: number;
  /** Only events strictly older than this position (occurred_at, then id, descending). */
  readonly after?: AuditPosition | undefined;
  readonly action?: AuditAction | ModuleAuditAction | undefined;
  readonly actorUserId?: string | undefined;
}

/**
 * The append-only trail. There is no update or delete: the database grants the service neither.
 * Inside a unit of work an append commits or rolls back with the change it records.
 */
export interface AuditEventRepository {
  /** Stores one event. Ids are fresh, so a conflict is a storage failure and is thrown as is. */
  append(event: AuditEvent): Promise<void>;
  /**
   * The tenant's events, newest first, at most `limit`. Ties in time are broken by id, descending:
   * event ids are time-ordered (IdGenerator.newOrderedId), so events of one millisecond keep their order.
   */
  list(tenantId: string, query: AuditQuery): Promise<AuditEvent[]>;
}
