import type { RecordKind } from '../../application/ports/repositories';
import type { RecordRefusal, Refusal } from '../../application/record-refusal';
import { DomainError, InsufficientRole } from '../../domain/errors';
import { isUuid } from '../../domain/ids';
import type { Role } from '../../domain/role';
import type { NodeErrorHandler } from './node-handler';
import { originOf } from './request-origin';
import { principalIfAny } from './request-principal';

/** The not-found answers that may mean "that record is another tenant's" (RecordRefusal decides), by error code. */
const NOT_IN_TENANT: Readonly<Record<string, RecordKind>> = {
  INVITE_NOT_FOUND: 'invite',
  API_KEY_NOT_FOUND: 'api_key',
  MEMBER_NOT_FOUND: 'member',
};

/** The member rules on roles (a 403 from a member change, not from the route's guard), by error code. */
const ROLE_RULES: ReadonlySet<string> = new Set(['ROLE_ABOVE_OWN', 'OWNER_ROLE_REQUIRED', 'OWNER_KEY_REQUIRES_OWNER']);

function refusalFor(err: unknown, targetId: unknown): Refusal | null {
  if (err instanceof InsufficientRole) return { reason: 'role', requiredRole: err.minimumRole as Role };
  const target = typeof targetId === 'string' && isUuid(targetId) ? targetId.toLowerCase() : null;
  if (err instanceof DomainError && ROLE_RULES.has(err.code)) return { reason: 'role', rule: err.code.toLowerCase(), targetId: target };
  if (err instanceof DomainError && target !== null) {
    const resource = NOT_IN_TENANT[err.code];
    if (resource) return { reason: 'tenant', resource, targetId: target };
  }
  return null;
}

/**
 * Runs inside each protected route (addRouteGroup's onError), where the route's :id is still known.
 * An authenticated request refused for its role or for naming another tenant's record leaves
 * an `access.denied` event, whichever layer refused it (the route's guard or the use-case). Recording is best effort: the client gets its 403/404 either way,
 * and a failure to record is logged, never turned into a different answer.
 */
export function auditRefusals(recordRefusal: RecordRefusal, log: (err: unknown) => void): NodeErrorHandler {
  return async (err, req, res, next) => {
    const principal = principalIfAny(res);
    const refusal = principal ? refusalFor(err, req.params['id']) : null;
    if (principal && refusal) {
      try {
        await recordRefusal.execute(principal, originOf(req), refusal);
      } catch (recordError) {
        log(recordError);
      }
    }
    next(err);
  };
}
