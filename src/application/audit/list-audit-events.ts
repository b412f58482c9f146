import { AUDIT_ACTIONS, type AuditAction, type AuditEvent, type ModuleAuditAction } from '../../domain/audit-event';
import { InvalidAuditCursor } from '../../domain/errors';
import type { Principal } from '../../domain/principal';
import { assertRoleAtLeast } from '../../domain/role';
import { decodeAuditCursor, encodeAuditCursor } from './audit-cursor';
import type { AuditEventRepository } from '../ports/audit-events';

export interface ListAuditEventsInput {
  /** Already validated by the caller: 1..MAX_AUDIT_PAGE. */
  readonly limit: number;
  readonly cursor?: string | undefined;
  readonly action?: AuditAction | ModuleAuditAction | undefined;
  readonly actorUserId?: string | undefined;
}

export interface AuditPage {
  readonly events: AuditEvent[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 100;

export interface ListAuditEventsDeps {
  readonly auditEvents: AuditEventRepository;
  /** The installed product modules' actions, listed after identity's. */
  readonly moduleActions?: readonly ModuleAuditAction[];
}

/** The caller's tenant's trail, newest first, a page at a time. */
export class ListAuditEvents {
  /** Every action the trail may hold here: identity's, then the installed modules' (a filter names one of them). */
  readonly actions: readonly string[];

  constructor(private readonly deps: ListAuditEventsDeps) {
    this.actions = [...AUDIT_ACTIONS, ...(deps.moduleActions ?? [])];
  }

  async execute(caller: Principal, input: ListAuditEventsInput): Promise<AuditPage> {
    assertRoleAtLeast(caller.role, 'admin');
    const after = input.cursor === undefined ? undefined : decodeAuditCursor(input.cursor);
    if (after === null) throw new InvalidAuditCursor();
    // One more than asked tells whether a next page exists without a count query.
    const rows = await this.deps.auditEvents.list(caller.tenantId, {
      limit: input.limit + 1,
      after,
      action: input.action,
      actorUserId: input.actorUserId,
    });
    const events = rows.slice(0, input.limit);
    const last = events[events.length - 1];
    return { events, nextCursor: rows.length > input.limit && last ? encodeAuditCursor(last) : null };
  }
}
