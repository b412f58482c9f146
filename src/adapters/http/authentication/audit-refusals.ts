import type { RecordRefusal, Refusal } from '../../../application/audit/record-refusal';
import { DomainError, InsufficientRole } from '../../../domain/errors';
import { isUuid } from '../../../domain/ids';
import type { Role } from '../../../domain/role';
import type { ErrorTable } from '../errors/error-mapper';
import type { NodeErrorHandler } from '../fast-path/node-handler';
import { contextOf, originOf } from '../request-context';

function refusalFor(err: unknown, targetId: unknown, errors: ErrorTable): Refusal | null {
  if (err instanceof InsufficientRole) return { reason: 'role', requiredRole: err.minimumRole as Role };
  if (!(err instanceof DomainError) || !Object.hasOwn(errors, err.code)) return null;
  const answer = errors[err.code]!;
  const target = typeof targetId === 'string' && isUuid(targetId) ? targetId.toLowerCase() : null;
  if (answer.roleRule) return { reason: 'role', rule: err.code.toLowerCase(), targetId: target };
  if (answer.notInTenant !== undefined && target !== null) return { reason: 'tenant', resource: answer.notInTenant, targetId: target };
  return null;
}

/**
 * The protected group's error handler (route-table.ts runs it inside each route, where the route's
 * :id is still known). An authenticated request refused for its role, or for naming a record its
 * tenant cannot act on, leaves an `access.denied` event, whichever layer refused it (the role check
 * or the use-case): each error code's record (ErrorAnswer) says which. Recording is best effort: the
 * client gets its 403/404 either way, and a failure to record is logged, never turned into a
 * different answer.
 */
export function auditRefusals(recordRefusal: RecordRefusal, log: (err: unknown) => void, errors: ErrorTable): NodeErrorHandler {
  return async (err, req, _res, next) => {
    const { principal } = contextOf(req);
    const refusal = principal ? refusalFor(err, req.params['id'], errors) : null;
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
