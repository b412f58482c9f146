import type { Principal } from '../../domain/principal';
import type { Role } from '../../domain/role';
import { AuditTrail, type RequestOrigin } from './audit-trail';
import type { AuditEventRepository } from '../ports/audit-events';

/**
 * Why an authenticated caller was refused: their role is too low for the route, a member rule on
 * roles forbids the change (`rule`: the rule's code, and the member named), or the record they named
 * is not one their tenant can act on (answered 404 whether it exists elsewhere or not, so it reveals nothing).
 */
export type Refusal =
  | { readonly reason: 'role'; readonly requiredRole: Role }
  | { readonly reason: 'role'; readonly rule: string; readonly targetId: string | null }
  | { readonly reason: 'tenant'; readonly resource: string; readonly targetId: string };

export interface RecordRefusalDeps {
  readonly auditEvents: AuditEventRepository;
  readonly trail: AuditTrail;
}

/**
 * The `access.denied` event: nothing changed, so it is written on its own. Every not-found for an
 * id is recorded alike (reason `tenant`: not a record this tenant can act on), whoever holds the
 * id: another tenant, the caller's own tenant (an invite accepted or deleted, a member removed), or
 * nobody. Recording only ids another tenant holds would make the caller's own trail say which ids
 * those are; and asking the database who holds an id would need a function that tells anyone.
 */
export class RecordRefusal {
  constructor(private readonly deps: RecordRefusalDeps) {}

  async execute(caller: Principal, origin: RequestOrigin, refusal: Refusal): Promise<void> {
    const event = this.deps.trail.event(origin, {
      tenantId: caller.tenantId,
      actor: caller,
      action: 'access.denied',
      targetId: 'targetId' in refusal ? refusal.targetId : null,
      details: refusal.reason === 'tenant'
        ? { reason: 'tenant', resource: refusal.resource }
        : 'rule' in refusal
          ? { reason: 'role', role: caller.role, rule: refusal.rule }
          : { reason: 'role', role: caller.role, required_role: refusal.requiredRole },
    });
    await this.deps.auditEvents.append(event);
  }
}
