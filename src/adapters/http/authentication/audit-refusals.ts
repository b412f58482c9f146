import type { RecordRefusal, Refusal } from '../../../application/audit/record-refusal';
import { DomainError, InsufficientRole } from '../../../domain/errors';
import { isUuid } from '../../../domain/ids';
import type { Role } from '../../../domain/role';
import type { IdentityErrorCode } from '../errors/error-mapper';
import type { NodeErrorHandler } from '../fast-path/node-handler';
import { originOf } from '../middleware/request-origin';
import { principalIfAny } from './request-principal';

/**
 * What each identity error says about an authenticated caller who was refused: `tenant` for a
 * not-found answer that means "that record is not in your tenant", `role-rule` for a member rule on
 * roles (a 403 from a member change, not from the route's guard), null for everything else. Keyed
 * by the code union, so a new error class must be classified here before the code compiles.
 */
const REFUSALS: Readonly<Record<IdentityErrorCode, RefusalKind | null>> = {
  INVITE_NOT_FOUND: { tenant: 'invite' },
  API_KEY_NOT_FOUND: { tenant: 'api_key' },
  MEMBER_NOT_FOUND: { tenant: 'member' },
  ROLE_ABOVE_OWN: 'role-rule',
  OWNER_ROLE_REQUIRED: 'role-rule',
  OWNER_KEY_REQUIRES_OWNER: 'role-rule',
  EMAIL_ALREADY_REGISTERED: null,
  INVALID_INVITE_TOKEN: null,
  INVITE_ALREADY_ACCEPTED: null,
  INVITE_EXPIRED: null,
  TENANT_NAME_REQUIRED: null,
  INVALID_CREDENTIALS: null,
  INVALID_API_KEY_FORMAT: null,
  INVALID_API_KEY: null,
  INVALID_TOKEN: null,
  MISSING_AUTHENTICATION: null,
  INSUFFICIENT_ROLE: null, // recorded from the error itself, with the role it required
  INVALID_AUDIT_CURSOR: null,
  TOO_MANY_FAILED_LOGINS: null,
  LAST_OWNER: null,
  CURRENT_PASSWORD_INCORRECT: null,
  INVALID_SERVICE_KEY: null,
};

/** How a refusal is recorded: a member rule on roles, or a record outside the caller's tenant (its resource name). */
export type RefusalKind = 'role-rule' | { readonly tenant: string };

/** A product module's not-found codes, by the resource they name (PortcullisModule.errors). */
export type ModuleRefusals = Readonly<Record<string, RefusalKind | null>>;

function kindOf(code: string, moduleRefusals: ModuleRefusals): RefusalKind | null {
  if (Object.hasOwn(REFUSALS, code)) return REFUSALS[code as IdentityErrorCode];
  return Object.hasOwn(moduleRefusals, code) ? moduleRefusals[code] ?? null : null;
}

function refusalFor(err: unknown, targetId: unknown, moduleRefusals: ModuleRefusals): Refusal | null {
  if (err instanceof InsufficientRole) return { reason: 'role', requiredRole: err.minimumRole as Role };
  if (!(err instanceof DomainError)) return null;
  const target = typeof targetId === 'string' && isUuid(targetId) ? targetId.toLowerCase() : null;
  const kind = kindOf(err.code, moduleRefusals);
  if (kind === 'role-rule') return { reason: 'role', rule: err.code.toLowerCase(), targetId: target };
  if (kind !== null && target !== null) return { reason: 'tenant', resource: kind.tenant, targetId: target };
  return null;
}

/**
 * Runs inside each protected route (addRouteGroup's onError), where the route's :id is still known.
 * An authenticated request refused for its role or for naming another tenant's record leaves
 * an `access.denied` event, whichever layer refused it (the route's guard or the use-case). Recording is best effort: the client gets its 403/404 either way,
 * and a failure to record is logged, never turned into a different answer.
 */
export function auditRefusals(recordRefusal: RecordRefusal, log: (err: unknown) => void, moduleRefusals: ModuleRefusals = {}): NodeErrorHandler {
  return async (err, req, res, next) => {
    const principal = principalIfAny(res);
    const refusal = principal ? refusalFor(err, req.params['id'], moduleRefusals) : null;
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
