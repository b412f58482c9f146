import type { AuditEventRepository } from '../../../application/ports/audit-events';
import type { AuditEvent } from '../../../domain/audit-event';

/** Newest first, ties by id descending: the order every backend keeps. */
function newestFirst(a: AuditEvent, b: AuditEvent): number {
  const byTime = b.occurredAt.getTime() - a.occurredAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function isOlderThan(event: AuditEvent, position: { occurredAt: Date; id: string }): boolean {
  const time = event.occurredAt.getTime();
  const limit = position.occurredAt.getTime();
  return time < limit || (time === limit && event.id < position.id);
}

/** The trail over one state's event map (the committed one, or a unit of work's draft). */
export function memoryAuditEvents(events: Map<string, AuditEvent>): AuditEventRepository {
  return {
    async append(event) {
      if (events.has(event.id)) throw new Error(`duplicate key value violates unique constraint "audit_events_pkey"`);
      events.set(event.id, event);
    },
    async list(tenantId, query) {
      const actor = query.actorUserId?.toLowerCase();
      return [...events.values()]
        .filter((e) => e.tenantId === tenantId)
        .filter((e) => query.action === undefined || e.action === query.action)
        .filter((e) => actor === undefined || e.actorUserId === actor)
        .filter((e) => query.after === undefined || isOlderThan(e, query.after))
        .sort(newestFirst)
        .slice(0, query.limit);
    },
  };
}
