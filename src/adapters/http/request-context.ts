import type { IncomingMessage } from 'node:http';
import type { RequestOrigin } from '../../application/audit/audit-trail';
import type { Principal } from '../../domain/principal';
import type { AdmittedService } from '../../application/authentication/authenticate-service';
import type { ScimCaller } from '../../application/scim/scim-caller';

/** What logs and metrics call a request that matched no route: one label, however many paths are tried. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * What the platform learns about a request on its way through, in one place: the route that matched,
 * who is calling. Route handlers never read it (they are handed a RouteRequest); the platform's own
 * steps do: the guards write it, the request log, the metrics and the refusal recorder read it.
 */
export interface RequestContext {
  /**
   * The pattern of the route that matched (`/api/v1/auth/invites/:id`), fixed when the app is
   * built. The raw URL cannot stand in for it: it carries ids and query strings, and Express matches
   * case-insensitively, so every spelling of a path would be a new log value and a new metric series.
   */
  route: string;
  /** Set by the protected group's authentication. */
  principal: Principal | undefined;
  /** Set by the service group's guard (introspection, the change stream). */
  serviceCaller: AdmittedService | undefined;
  /** Set by the scim group's guard. */
  scimCaller: ScimCaller | undefined;
}

const CONTEXT = Symbol('portcullis request context');

/**
 * The request's context, made on first use. It rides on the request under a symbol of this module's
 * own rather than in a WeakMap: a weak entry for every short-lived request is extra work for the
 * garbage collector on the hottest routes (GET /me by API key, scripts/bench/compare.ts /me-key).
 */
export function contextOf(req: IncomingMessage): RequestContext {
  const carrier = req as IncomingMessage & { [CONTEXT]?: RequestContext };
  return (carrier[CONTEXT] ??= { route: UNMATCHED_ROUTE, principal: undefined, serviceCaller: undefined, scimCaller: undefined });
}

/**
 * What the audit trail records of where a request came from: `ip` follows `trust proxy`, so it is
 * the address the rate limiters count too; the request id is the one the request logger assigned
 * (and returned to the client), so a log line and an audit event can be matched.
 */
export function originOf(req: IncomingMessage & { readonly ip?: string | undefined; readonly id?: unknown }): RequestOrigin {
  const { id } = req;
  return {
    clientAddress: req.ip,
    userAgent: req.headers['user-agent'],
    requestId: typeof id === 'string' || typeof id === 'number' ? String(id) : undefined,
  };
}
