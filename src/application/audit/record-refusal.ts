import type { Principal } from '../../domain/principal';
import type { Role } from '../../domain/role';
import { AuditTrail, type RequestOrigin } from './audit-trail';
import type { AuditEventRepository } from '../ports/audit-events';
import type { RecordKind, TenantRepository } from '../ports/repositories';

/**
 * Why an authenticated caller was refused: their role is too low for the route, a member rule on
 * roles forbids the change (`rule`: the rule's code, and the member named), or the record they named
 * was not found in their tenant (answered 404 whether it exists elsewhere or not, so it reveals nothing).
 */
export type Refusal =
  | { readonly reason: 'role'; readonly requiredRole: Role }
  | { readonly reason: 'role'; readonly rule: string; readonly targetId: string | null }
  | { readonly reason: 'tenant'; readonly resource: string; readonly targetId: string };

const RECORD_KINDS: ReadonlySet<string> = new Set<RecordKind>(['invite', 'api_key', 'member']);

function isRecordKind(resource: string): resource is RecordKind {
  return RECORD_KINDS.has(resource);
}

export interface RecordRefusalDeps {
  readonly auditEvents: AuditEventRepository;
  readonly tenants: Pick<TenantRepository, 'tenantHolding'>;
  readonly trail: AuditTrail;
}

/**
 * The `access.denied` event: nothing changed, so it is written on its own. A not-found is a denial
 * only when another tenant holds the record: an id of the caller's own tenant that is gone or used
 * (an invite accepted or deleted, a member removed) or an id nobody holds is a stale or mistyped
 * id, and records nothing.
 */
export class RecordRefusal {
  constructor(private readonly deps: RecordRefusalDeps) {}

  async execute(caller: Principal, origin: RequestOrigin, refusal: Refusal): Promise<void> {
    // Identity's records say which tenant holds them; a module's not-found is recorded as it comes.
    if (refusal.reason === 'tenant' && isRecordKind(refusal.resource)) {
      const holder = await this.deps.tenants.tenantHolding(refusal.resource, refusal.targetId);
      if (holder === null || holder === caller.tenantId) return;
    }
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
