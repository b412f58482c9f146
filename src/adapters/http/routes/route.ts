import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestOrigin } from '../../../application/audit/audit-trail';
import type { Principal } from '../../../domain/principal';
import type { Role } from '../../../domain/role';
import type { AdmittedService } from '../../../application/authentication/authenticate-service';

/**
 * Who may call a route, and so what runs before its handler (app.ts puts the groups in order):
 * - `public`: anyone; the global rate limit, and the route's own limit if it names one.
 * - `protected`: the contract's authentication first (docs/contract.md, "Authentication of protected routes"), then the role;
 *   a refusal (403, another tenant's id) is recorded in the audit trail.
 * - `service`, `probe`, `page`: the platform's own (verifying services by service key; health,
 *   readiness and metrics, before any rate limit; the API reference and the console pages).
 */
export type RouteGroup = 'public' | 'protected' | 'service' | 'probe' | 'page';

/** A route's own rate limit, on top of the global one (the contract's login and signup limits). */
export type RouteLimit = 'login' | 'signup' | 'introspect' | 'recovery' | 'sso';

type Headers = Readonly<Record<string, string>>;

/** What a handler answers. JSON for every API route; bytes for the pages; `stream` for the change feed. */
export type Answer =
  | { readonly status: number; readonly json: unknown; readonly headers?: Headers }
  | { readonly status: number; readonly bytes: string | Buffer; readonly contentType: string; readonly headers?: Headers }
  | { readonly stream: (req: IncomingMessage, res: ServerResponse) => void };

export function json(status: number, body: unknown, headers?: Headers): Answer {
  return headers ? { status, json: body, headers } : { status, json: body };
}

export function bytes(status: number, body: string | Buffer, contentType: string, headers?: Headers): Answer {
  return headers ? { status, bytes: body, contentType, headers } : { status, bytes: body, contentType };
}

/** Everything a handler is given: the validated body and query, the path's parameters, and who is calling from where. */
export interface RouteRequest<Body = undefined, Query = undefined> {
  readonly body: Body;
  readonly query: Query;
  readonly params: Readonly<Record<string, string>>;
  readonly origin: RequestOrigin;
  /** The request's headers as Node gives them (names in lower case). */
  readonly headers: IncomingHttpHeaders;
  /** Whether the client came over https: to this server, or to a trusted proxy that says so (TRUST_PROXY), as Express decides it. */
  readonly secure: boolean;
  /** The authenticated caller; only a `protected` route has one (asking elsewhere is a wiring bug: a 500). */
  readonly principal: Principal;
  /** The verifying service; only a `service` route has one. */
  readonly serviceCaller: AdmittedService;
}

/**
 * One route, declared once: method, path, group, minimum role, the shapes of its body and query
 * (class-validator DTOs), and the handler. The platform turns it into what runs (authentication,
 * role check before the body is read, body and query validation, the answer, errors through the
 * one error mapper), and serves it without Express's per-request work where it can (route-table.ts).
 */
export interface Route<Body = any, Query = any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The full path (`/api/v1/auth/invites/:id`); a `:name` segment is a parameter. */
  readonly path: string;
  readonly group: RouteGroup;
  /** The least role a `protected` route's caller must hold (the contract's 403 otherwise). */
  readonly role?: Role;
  /**
   * A `protected` route that changes how someone signs in (an address, a member's sessions, a
   * second factor): the caller's session must have proven its password within REAUTH_WINDOW_SECONDS
   * (403 `Recent authentication required` otherwise; an API key or a token without a session never has).
   */
  readonly recentAuth?: boolean;
  /**
   * A `protected` route open to an enrollment session (a sign-in without a second factor in a tenant
   * that requires one): who the caller is, signing out, and enrolling a factor. Every other
   * protected route answers such a session 403 `Second factor enrollment required`.
   */
  readonly enrollment?: boolean;
  readonly limit?: RouteLimit;
  /** The JSON body's shape: a missing body is `{}`, so validation names the missing fields. */
  readonly body?: new () => Body;
  readonly query?: new () => Query;
  /**
   * `ignore`: query parameters the DTO does not declare are dropped rather than refused. Only for a
   * URL another party builds (an identity provider's redirect back, which may add its own).
   */
  readonly unknownQuery?: 'ignore';
  handle(request: RouteRequest<Body, Query>): Answer | Promise<Answer>;
  /** Told of every answer the route gives, refusals included (the platform's metrics). */
  readonly answered?: (status: number, answer: Answer | undefined) => void;
}

/** Declares a route with its body and query types inferred from the DTOs. */
export function route<Body = undefined, Query = undefined>(definition: Route<Body, Query>): Route<Body, Query> {
  return definition;
}
