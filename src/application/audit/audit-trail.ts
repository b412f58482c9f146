import { AUDIT_CLIENT_ADDRESS_MAX, AUDIT_REQUEST_ID_MAX, AUDIT_USER_AGENT_MAX, boundedText, type AuditAction, type AuditActorMethod, type ModuleAuditAction, type AuditDetails, type AuditEvent } from '../../domain/audit-event';
import type { Principal } from '../../domain/principal';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/ids';

/** Where a request came from, as the driving adapter saw it; every field optional (tests, scripts). */
export interface RequestOrigin {
  readonly clientAddress?: string | undefined;
  readonly userAgent?: string | undefined;
  readonly requestId?: string | undefined;
}

export const UNKNOWN_ORIGIN: RequestOrigin = {};

/** Who did it: an authenticated principal, or someone not (yet) authenticated, possibly known by id. */
export type AuditActor =
  | Pick<Principal, 'userId' | 'method'>
  | { readonly userId: string | null; readonly method: 'none' }
  | { readonly userId: null; readonly method: 'scim' };

/** The tenant's identity provider, calling with the tenant's SCIM token: no member acts. */
export const SCIM_ACTOR: AuditActor = { userId: null, method: 'scim' };

export interface AuditFacts {
  readonly tenantId: string | null;
  readonly actor: AuditActor;
  readonly action: AuditAction | ModuleAuditAction;
  readonly targetId?: string | null | undefined;
  readonly details?: AuditDetails | undefined;
}

/** Builds events with fresh ids and the application's clock, so tests control both. */
export class AuditTrail {
  constructor(private readonly deps: { readonly ids: IdGenerator; readonly clock: Clock }) {}

  event(origin: RequestOrigin, facts: AuditFacts): AuditEvent {
    const method: AuditActorMethod = facts.actor.method;
    return {
      id: this.deps.ids.newOrderedId(),
      tenantId: facts.tenantId,
      actorUserId: facts.actor.userId,
      actorMethod: method,
      action: facts.action,
      targetId: facts.targetId ?? null,
      clientAddress: boundedText(origin.clientAddress, AUDIT_CLIENT_ADDRESS_MAX),
      userAgent: boundedText(origin.userAgent, AUDIT_USER_AGENT_MAX),
      requestId: boundedText(origin.requestId, AUDIT_REQUEST_ID_MAX),
      occurredAt: this.deps.clock.now(),
      details: facts.details ?? {},
    };
  }
}
