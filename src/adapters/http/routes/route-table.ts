import type { IncomingHttpHeaders, IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Express } from 'express';
import proxyAddr from 'proxy-addr';
import type { RequestOrigin } from '../../../application/audit/audit-trail';
import type { AdmittedService } from '../../../application/authentication/authenticate-service';
import type { ScimCaller } from '../../../application/scim/scim-caller';
import { SecondFactorEnrollmentRequired } from '../../../domain/errors';
import type { Principal } from '../../../domain/principal';
import { assertRoleAtLeast } from '../../../domain/role';
import { readJsonBody } from '../body/json-body';
import { validatedInstance, shownName } from '../body/validate-body';
import { HttpError } from '../errors/http-error';
import { type NodeErrorHandler, type NodeHandler, type NodeRequest, type NodeResponse, runHandlers } from '../fast-path/node-handler';
import { sendJson } from '../fast-path/send-json';
import { contextOf, originOf } from '../request-context';
import type { Answer, Route, RouteGroup, RouteLimit, RouteRequest } from './route';

/** What a group puts around each of its routes: its guards before the route's own steps, its error handlers after. */
export interface GroupSteps {
  readonly guards: readonly NodeHandler[];
  readonly onError: readonly NodeErrorHandler[];
}

export interface RouteTableOptions {
  readonly groups: Readonly<Record<RouteGroup, GroupSteps>>;
  readonly limiters: Readonly<Record<RouteLimit, NodeHandler>>;
  /** What a route declared `recentAuth` runs after its role check. */
  readonly recentAuthentication: NodeHandler;
  /**
   * What every request passes before any route, in the app's order (the same instances app.ts gives
   * app.use), and the limiter every group but `probe` and `service` passes after it.
   */
  readonly before: readonly NodeHandler[];
  readonly globalLimiter: NodeHandler;
  readonly errorMapper: NodeErrorHandler;
  /** Which forwarded addresses to believe (TRUST_PROXY): Express is given the same function. */
  readonly trust: (address: string, hop: number) => boolean;
}

interface Compiled {
  readonly route: Route;
  readonly handlers: readonly NodeHandler[];
  readonly onError: readonly NodeErrorHandler[];
}

/**
 * The groups in the order their routes go on the app; the global limiter comes after `scim`. Like
 * `service`, `scim` is limited per credential, and its guard spends the global limit only on a
 * refused one: an identity provider syncing a tenant is not held to a browser's quota.
 */
export const GROUP_ORDER: readonly RouteGroup[] = ['probe', 'service', 'scim', 'page', 'public', 'protected'];
const BEFORE_GLOBAL_LIMIT: ReadonlySet<RouteGroup> = new Set(['probe', 'service', 'scim']);

const notFound: NodeHandler = (_req, _res, next) => next(new HttpError(404, 'Not found'));

/**
 * Every route of the service (identity's, the platform's, the modules'), declared once (route.ts)
 * and turned into the steps that run for it: its group's guards, its role check (before its body
 * is read, so a caller without the role learns nothing of what a valid body looks like), its own
 * limit, its body and query, its handler, and its answer; errors go through its group's error
 * handlers and the one error mapper.
 *
 * Routes go on the Express app. A route whose path has no parameter is also answered without
 * Express when a request's method and URL are exactly its own: the same steps, in the same order,
 * after the same app-level steps, without Express's per-request work (its request and response
 * prototypes, its whole stack walked with each layer's pattern tried), which on a small JSON
 * answer is most of the cost. Any other spelling Express accepts for the route (`/ME`, a trailing
 * slash, a query string, HEAD) goes through Express and gets the same answer
 * (test/http/direct-routes.test.ts checks it header by header).
 */
export class RouteTable {
  private readonly compiled: Compiled[] = [];
  private readonly direct = new Map<string, Compiled>();

  constructor(private readonly options: RouteTableOptions) {}

  /** Every route added, as declared. */
  get routes(): readonly Route[] {
    return this.compiled.map((compiled) => compiled.route);
  }

  /** Adds routes; a method and path already taken is a wiring bug, refused at start. */
  add(routes: readonly Route[]): void {
    for (const route of routes) {
      const key = `${route.method.toUpperCase()} ${route.path.toLowerCase()}`;
      if (this.compiled.some((other) => `${other.route.method.toUpperCase()} ${other.route.path.toLowerCase()}` === key)) {
        throw new Error(`route ${key} declared twice`);
      }
      const compiled = this.compile(route);
      this.compiled.push(compiled);
      if (!route.path.includes(':')) this.direct.set(`${route.method.toUpperCase()} ${route.path}`, compiled);
    }
  }

  /** Puts every route on the app, group by group; the global limiter goes between `service` and the rest. */
  mount(app: Express): void {
    for (const group of GROUP_ORDER) {
      if (group === 'page') app.use(this.options.globalLimiter);
      for (const { route, handlers, onError } of this.compiled) {
        if (route.group === group) app[route.method](route.path, ...handlers, ...onError);
      }
    }
  }

  /** The server's request listener: a parameter-less route's exact method and URL answered here, the Express app otherwise. */
  listener(app: Express): RequestListener {
    const { trust, before, globalLimiter, errorMapper } = this.options;
    const chains = new Map<string, { handlers: NodeHandler[]; onError: NodeErrorHandler[] }>();
    for (const [key, { route, handlers, onError }] of this.direct) {
      const prelude = BEFORE_GLOBAL_LIMIT.has(route.group) ? before : [...before, globalLimiter];
      chains.set(key, { handlers: [...prelude, ...handlers, notFound], onError: [...onError, errorMapper] });
    }
    return (req: IncomingMessage, res: ServerResponse) => {
      const chain = chains.get(`${req.method} ${req.url}`);
      if (!chain) {
        app(req, res);
        return;
      }
      const request = req as NodeRequest & { ip: string; params: Record<string, string> };
      const response = res as NodeResponse;
      request.ip = proxyAddr(req, trust); // what Express's req.ip is, with the same trust
      request.params = {};
      runHandlers(chain.handlers, chain.onError, request, response, (err) => unanswered(err, request, response));
    };
  }

  private compile(route: Route): Compiled {
    const { groups, limiters } = this.options;
    const group = groups[route.group];
    const steps: NodeHandler[] = [mark(route), ...group.guards];
    if (route.group === 'protected' && !route.enrollment) steps.push(refuseEnrollmentSessions);
    if (route.role) {
      const minimum = route.role;
      steps.push((req, _res, next) => {
        assertRoleAtLeast(contextOf(req).principal?.role ?? '', minimum);
        next();
      });
    }
    if (route.recentAuth) steps.push(this.options.recentAuthentication);
    if (route.limit) steps.push(limiters[route.limit]);
    steps.push(invoke(route, this.options.trust));
    return { route, handlers: steps, onError: group.onError };
  }
}

/** Before the role check: a session that must enroll a second factor opens only the routes that say so. */
const refuseEnrollmentSessions: NodeHandler = (req, _res, next) => {
  if (contextOf(req).principal?.enrollmentOnly) throw new SecondFactorEnrollmentRequired();
  next();
};

/** Notes the route's pattern for the log and the metrics, and, when the route wants them, its answers. */
function mark(route: Route): NodeHandler {
  const { answered } = route;
  return (req, res, next) => {
    contextOf(req).route = route.path;
    if (answered) res.once('finish', () => answered(res.statusCode, answerOf(res)));
    next();
  };
}

const ANSWER = Symbol('answer');

function answerOf(res: NodeResponse): Answer | undefined {
  return (res as NodeResponse & { [ANSWER]?: Answer })[ANSWER];
}

/** Reads and validates what the route declares, calls its handler, writes its answer. */
function invoke(route: Route, trust: Trust): NodeHandler {
  return async (req, res) => {
    const body = route.body ? await validatedInstance(route.body, await readJsonBody(req, res)) : route.rawBody ? await readJsonBody(req, res) : undefined;
    const query = route.query
      ? await validatedInstance(route.query, queryOf(req), { ignoreUnknown: route.unknownQuery === 'ignore' })
      : route.rawQuery ? queryOf(req) : undefined;
    const answer = await route.handle(new NodeRouteRequest(req, body, query, trust));
    (res as NodeResponse & { [ANSWER]?: Answer })[ANSWER] = answer;
    write(req, res, answer);
  };
}

type Trust = RouteTableOptions['trust'];

/**
 * The protocol the client used, as Express's req.protocol has it (computed here for both paths, so
 * they agree): https on a TLS socket; else, when the peer is a trusted proxy, the first
 * X-Forwarded-Proto value; else http.
 */
function protocolOf(req: IncomingMessage, trust: Trust): string {
  const direct = (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress ?? '', 0)) return direct;
  const header = req.headers['x-forwarded-proto'];
  const forwarded = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return forwarded || direct;
}

/**
 * What a handler is given. A class rather than an object literal with getters: its accessors live
 * once on the prototype, so making one per request is a plain allocation (a literal's getters are
 * new closures and a slow-shaped object on every request). The protocol and the callers are read
 * only when a handler asks.
 */
class NodeRouteRequest implements RouteRequest<unknown, unknown> {
  readonly params: Record<string, string>;
  readonly origin: RequestOrigin;
  readonly headers: IncomingHttpHeaders;

  constructor(private readonly req: NodeRequest, readonly body: unknown, readonly query: unknown, private readonly trust: Trust) {
    const params: Record<string, string> = {};
    for (const name in req.params) params[name] = String(req.params[name]);
    this.params = params;
    this.origin = originOf(req);
    this.headers = req.headers;
  }

  get secure(): boolean {
    return protocolOf(this.req, this.trust) === 'https';
  }

  get principal(): Principal {
    const { principal } = contextOf(this.req);
    if (!principal) throw new Error('No principal on this request: the route is not in the protected group');
    return principal;
  }

  get serviceCaller(): AdmittedService {
    const { serviceCaller } = contextOf(this.req);
    if (!serviceCaller) throw new Error('No service caller on this request: the route is not in the service group');
    return serviceCaller;
  }

  get scimCaller(): ScimCaller {
    const { scimCaller } = contextOf(this.req);
    if (!scimCaller) throw new Error('No SCIM caller on this request: the route is not in the scim group');
    return scimCaller;
  }
}

/** The query string's parameters; one given twice is refused by name rather than one copy picked silently. */
function queryOf(req: NodeRequest): Record<string, unknown> {
  const search = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const query: Record<string, unknown> = {};
  for (const name of new Set(search.keys())) {
    const values = search.getAll(name);
    if (values.length > 1) {
      const field = shownName(name);
      throw new HttpError(400, `${field} must be given once`, [{ field, message: `${field} must be given once` }]);
    }
    query[name] = values[0];
  }
  return query;
}

function write(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if ('stream' in answer) {
    answer.stream(req, res);
    return;
  }
  if ('json' in answer) {
    sendJson(res, answer.status, answer.json, answer.headers);
    return;
  }
  res.statusCode = answer.status;
  if (answer.headers) for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', Buffer.byteLength(answer.bytes));
  res.end(answer.bytes);
}

/**
 * The end of the line for a request answered without Express, as Express's final handler: the error mapper passes an
 * error on only when the answer has already begun (the connection is then cut, the client sees a
 * broken response rather than a wrong one); anything else unanswered is a 500.
 */
function unanswered(_err: unknown, req: NodeRequest, res: NodeResponse): void {
  if (res.headersSent) req.socket.destroy();
  else sendJson(res, 500, { error: 'Internal server error' });
}
