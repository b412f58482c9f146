import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import proxyAddr from 'proxy-addr';
import type { Counter } from 'prom-client';
import type { UseCases } from '../../application/use-cases';
import { authenticate } from './authentication/authenticate';
import { auditRefusals } from './authentication/audit-refusals';
import { countedAuthentication } from './authentication/counted-authentication';
import { recentAuthentication } from './authentication/recent-authentication';
import { consoleRoutes } from './console/console-routes';
import { type ConsoleFiles, readConsoleFiles } from './console/console-files';
import { openApiJson } from './docs/openapi-document';
import { type ErrorTable, errorMapper } from './errors/error-mapper';
import { HttpError } from './errors/http-error';
import type { NodeHandler, NodeRequest } from './fast-path/node-handler';
import { corsPolicy } from './middleware/cors';
import { type HttpMetrics, measureRequests } from './middleware/http-metrics';
import { createRateLimiters, type RateLimitConfig, type RateLimitStoreFactory } from './middleware/rate-limits';
import { assignRequestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { securityHeaders } from './middleware/security-headers';
import type { ModuleHttp } from './modules/module-http';
import { docsRoutes } from './routes/docs-routes';
import { probeRoutes } from './routes/health-routes';
import { ALWAYS_READY, type Readiness } from './routes/readiness';
import { AUTH_BASE } from './routes/identity-routes';
import type { Route } from './routes/route';
import { RouteTable } from './routes/route-table';
import { type ChangeStreamLimits, DEFAULT_CHANGE_STREAM_LIMITS, DEFAULT_HEARTBEAT_MS } from './verifiers/change-stream';
import { serviceGuard } from './verifiers/service-guard';
import { scimErrorBody, scimErrors, sendScim } from './scim/scim-errors';
import { scimGuard } from './scim/scim-guard';
import { SCIM_BASE } from './scim/scim-resources';
import { VerifierMetrics } from './verifiers/verifier-metrics';
import { verifierRoutes } from './verifiers/verifier-routes';

/**
 * Express's `trust proxy` setting, passed through: it decides req.ip, hence the rate-limit key. A hop
 * count or the proxies' addresses/subnets; never `true`, which takes the left-most X-Forwarded-For
 * entry, one the client writes itself, so every request could name a fresh address.
 */
export type TrustProxy = false | number | string | readonly string[];

export interface HttpConfig {
  /** The one origin allowed to call from a browser, matched exactly. */
  readonly corsOrigin: string;
  /** Requests per minute per client address. */
  readonly rateLimits: RateLimitConfig;
  /** Left unset (or false), Express trusts no proxy and rate limits count the socket's peer address. */
  readonly trustProxy?: TrustProxy | undefined;
  /**
   * Where each limiter counts (global, login, signup: one store each). Unset: in this process's
   * memory. Instances behind one load balancer need a shared store (Redis), or each allows the limit.
   */
  readonly rateLimitStore?: RateLimitStoreFactory | undefined;
}

/** What the app reports to and is measured by; every part is optional. */
export interface AppOptions {
  /**
   * The request log (one line per request, request ids) and the error log. Unset: no request log,
   * and errors go to `onError`, or to the console without it.
   */
  readonly logger?: Logger | undefined;
  /** Also told of every error the app logs: unexplained ones (500) and server-side failures (503). */
  readonly onError?: ((err: unknown) => void) | undefined;
  /** Requests timed, authentications, rate-limit refusals, logins and signups counted. Unset: nothing measured. */
  readonly metrics?: HttpMetrics | undefined;
  /** GET /metrics on this app; false when they are served on a port of their own. Default: true with metrics. */
  readonly serveMetrics?: boolean | undefined;
  /** What GET /readyz asks. Unset: always ready. */
  readonly readiness?: Readiness | undefined;
  /** How often an idle change-feed stream carries a heartbeat. Default: DEFAULT_HEARTBEAT_MS. */
  readonly changeHeartbeatMs?: number | undefined;
  /** How many change streams an instance and a service key may hold open, and how far a reader may fall behind. */
  readonly changeStreamLimits?: ChangeStreamLimits | undefined;
  /**
   * Identity, then the product modules (composeModules, src/bootstrap/modules): their routes, each
   * in its group, and their error records.
   */
  readonly modules: readonly ModuleHttp[];
  /** GET /api/v1/openapi.json's body with the modules' parts merged in; unset: docs/openapi.yaml as it is. */
  readonly apiReferenceJson?: string | undefined;
  /** The console served at /console. Unset: read from console/dist now; null, or not built: none. */
  readonly consoleFiles?: ConsoleFiles | null | undefined;
  /**
   * Routes that exist only outside production, chosen by the composition root (the development
   * mailbox's, when it is the mailer). Unset: none.
   */
  readonly developmentRoutes?: readonly Route[] | undefined;
}

/** Which forwarded addresses to believe, as one function for Express and the route table alike. */
function trustOf(setting: TrustProxy | undefined): (address: string, hop: number) => boolean {
  if (setting === undefined || setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(typeof setting === 'string' ? setting.split(',').map((part) => part.trim()) : [...setting]);
}

/**
 * The order is the policy: the request log and metrics first, so that every request, refused or
 * not, is counted and answered with its x-request-id; CORS next (preflights answered before anything
 * counts them, and even a 429 carries CORS headers so a browser client can read it); then the
 * routes group by group (route-table.ts): the probes (/healthz, /readyz, /metrics) and the
 * verifying services' routes (limited per service key) before the global limiter, then the pages
 * (API reference, console), the public group and the protected group after it; 404; and the one
 * error mapper. So the global limit counts every request but the probes, the verifiers' and CORS
 * preflights; login and signup add their own (docs/operations.md, "Rate limits").
 *
 * Every route is declared once (routes/route.ts): identity's and each module's come in `modules`,
 * the platform's are added here. What it returns is the server's request listener: the Express
 * app, with the routes that qualify also answered without Express (route-table.ts).
 */
export function createApp(useCases: UseCases, config: HttpConfig, options: AppOptions): HttpApp {
  const {
    logger, onError, metrics, serveMetrics: metricsRoute = true, readiness = ALWAYS_READY, modules, apiReferenceJson,
    consoleFiles = readConsoleFiles(), developmentRoutes = [],
  } = options;
  const errors: ErrorTable = Object.assign({}, ...modules.map((module) => module.errors)) as ErrorTable;
  const log = (err: unknown, req?: NodeRequest & { log?: Logger }): void => {
    if (logger) (req?.log ?? logger).error({ err }, 'request failed');
    if (onError) onError(err);
    else if (!logger) console.error(err);
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // responses are per caller and never cached; an ETag only costs a hash
  if ((config.trustProxy as unknown) === true) throw new Error('trust proxy must be a hop count or a list of subnets, never true');
  const trust = trustOf(config.trustProxy);
  app.set('trust proxy', trust);

  const limiters = createRateLimiters(config.rateLimits, {
    store: config.rateLimitStore,
    log,
    onReject: metrics ? (limiter) => metrics.rateLimited(limiter) : undefined,
  });

  // Every request, before any route; the route table runs the same list when it answers without Express.
  const everyRequest: NodeHandler[] = [logger ? requestLog(logger) : assignRequestId()];
  if (metrics) {
    const outcomes = new Map<string, Counter<'outcome'>>([[`${AUTH_BASE}/login`, metrics.logins], [`${AUTH_BASE}/signup`, metrics.signups]]);
    everyRequest.push(measureRequests(metrics, outcomes));
  }
  everyRequest.push(securityHeaders(), corsPolicy(config.corsOrigin));
  for (const handler of everyRequest) app.use(handler);

  // Authentication belongs to the protected group itself, not to a path: it runs once a route of the
  // group has matched on method and path, so an unknown path is still a 404 rather than a 401.
  const authenticateGuard = authenticate(useCases.authenticate);
  const mapErrors = errorMapper(log, errors);
  const table = new RouteTable({
    groups: {
      probe: { guards: [], onError: [] },
      service: { guards: [serviceGuard(useCases.authenticateService, limiters.global)], onError: [] },
      scim: { guards: [scimGuard(useCases.authenticateScim, limiters.global)], onError: [scimErrors(log, errors)] },
      page: { guards: [], onError: [] },
      public: { guards: [], onError: [] },
      protected: {
        guards: [metrics ? countedAuthentication(authenticateGuard, metrics) : authenticateGuard],
        onError: [auditRefusals(useCases.recordRefusal, log, errors)],
      },
    },
    limiters,
    recentAuthentication: recentAuthentication(useCases.requireRecentAuthentication),
    before: everyRequest,
    globalLimiter: limiters.global,
    errorMapper: mapErrors,
    trust,
  });
  table.add(probeRoutes(readiness, metrics && metricsRoute ? metrics.registry : undefined));
  table.add(verifierRoutes(useCases, {
    heartbeatMs: options.changeHeartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    changeStreamLimits: options.changeStreamLimits ?? DEFAULT_CHANGE_STREAM_LIMITS,
    metrics: metrics ? new VerifierMetrics(metrics.registry) : undefined,
  }));
  table.add(docsRoutes(apiReferenceJson ?? openApiJson()));
  if (consoleFiles) table.add(consoleRoutes(consoleFiles));
  else logger?.warn('the console is not built (npm run console:build): /console answers 404');
  table.add(developmentRoutes);
  for (const module of modules) table.add(module.routes);
  table.mount(app);

  // Under the SCIM base, a path no route has is answered in SCIM's format too, for the provider to read.
  app.use(SCIM_BASE, (_req, res) => sendScim(res, 404, scimErrorBody(404, 'Not found')));
  app.use((_req, _res, next) => {
    next(new HttpError(404, 'Not found'));
  });
  app.use(mapErrors);
  return { listener: table.listener(app), routes: table.routes };
}

/** The app: the server's request listener, and every route it serves (each as declared). */
export interface HttpApp {
  readonly listener: RequestListener;
  readonly routes: readonly Route[];
}
