import type { RequestListener } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { UseCases } from '../../application/use-cases';
import { authenticate } from './authentication/authenticate';
import { countedAuthentication } from './authentication/counted-authentication';
import { corsPolicy } from './middleware/cors';
import { errorMapper } from './errors/error-mapper';
import { liveness, readinessCheck } from './routes/health-routes';
import { DirectRoutes } from './fast-path/direct-routes';
import { HttpError } from './errors/http-error';
import { type HttpMetrics, measureRequests, serveMetrics } from './middleware/http-metrics';
import { createRateLimiters, type RateLimitConfig, type RateLimitStoreFactory } from './middleware/rate-limits';
import { ALWAYS_READY, type Readiness } from './routes/readiness';
import { auditRefusals } from './authentication/audit-refusals';
import { assignRequestId } from './middleware/request-id';
import type { NodeHandler, NodeRequest } from './fast-path/node-handler';
import { requestLog } from './middleware/request-log';
import { addRouteGroup } from './routes/route-group';
import { securityHeaders } from './middleware/security-headers';
import { addDocsRoutes } from './routes/docs-routes';
import { type ChangeStreamLimits, DEFAULT_CHANGE_STREAM_LIMITS, DEFAULT_HEARTBEAT_MS } from './verifiers/change-stream';
import { VerifierMetrics } from './verifiers/verifier-metrics';
import { addVerifierRoutes } from './verifiers/verifier-routes';
import { type ConsoleFiles, readConsoleFiles } from './console/console-files';
import { addConsoleRoutes } from './console/console-routes';
import { protectedRoutes } from './routes/protected-routes';
import { publicRoutes } from './routes/public-routes';
import { type ModuleHttp, moduleErrorTables } from './modules/module-http';

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
  /** Change streams per service key and per instance, and how far a reader may fall behind. Default: DEFAULT_CHANGE_STREAM_LIMITS. */
  readonly changeStreamLimits?: Partial<ChangeStreamLimits> | undefined;
  /**
   * Product modules, after identity (composeModules, src/bootstrap/modules): their routes join the
   * public and protected groups, their error codes the error mapper. Unset: identity alone.
   */
  readonly modules?: readonly ModuleHttp[] | undefined;
  /** GET /api/v1/openapi.json's body with the modules' parts merged in; unset: docs/openapi.yaml as it is. */
  readonly apiReferenceJson?: string | undefined;
  /** The console served at /console. Unset: read from console/dist now; null, or not built: none. */
  readonly consoleFiles?: ConsoleFiles | null | undefined;
}

const AUTH_BASE = '/api/v1/auth';

/** A function as the third argument is the error reporter alone (`{ onError }`), as before logs and metrics. */
function optionsFrom(options: AppOptions | ((err: unknown) => void)): AppOptions {
  return typeof options === 'function' ? { onError: options } : options;
}

/**
 * The order is the policy: the request log and metrics first, so that every request, refused or
 * not, is counted and answered with its x-request-id; CORS next (preflights answered before anything
 * counts them, and even a 429 carries CORS headers so a browser client can read it); /healthz,
 * /readyz and /metrics before rate limits and authentication; then the global limiter, the two
 * route groups, 404, and the one error mapper. So the global limit counts every request but the
 * probes, /metrics and CORS preflights; login and signup add their own (docs/operations.md, "Rate limits").
 *
 * What it returns is the server's request listener: the Express app, with GET /me and GET /invites
 * answered before Express is reached by the same handlers in the same order (direct-routes.ts).
 */
export function createApp(
  useCases: UseCases,
  config: HttpConfig,
  appOptions: AppOptions | ((err: unknown) => void) = {},
): RequestListener {
  const options = optionsFrom(appOptions);
  const {
    logger, onError, metrics, serveMetrics: metricsRoute = true, readiness = ALWAYS_READY, modules = [], apiReferenceJson,
    consoleFiles = readConsoleFiles(),
  } = options;
  const moduleErrors = moduleErrorTables(modules);
  const log = (err: unknown, req?: NodeRequest & { log?: Logger }): void => {
    if (logger) (req?.log ?? logger).error({ err }, 'request failed');
    if (onError) onError(err);
    else if (!logger) console.error(err);
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // responses are per caller and never cached; an ETag only costs a hash
  if ((config.trustProxy as unknown) === true) throw new Error('trust proxy must be a hop count or a list of subnets, never true');
  if (config.trustProxy !== undefined && config.trustProxy !== false) app.set('trust proxy', config.trustProxy);

  const limiters = createRateLimiters(config.rateLimits, {
    store: config.rateLimitStore,
    log,
    onReject: metrics ? (limiter) => metrics.rateLimited(limiter) : undefined,
  });

  // Every request, before any route; the direct routes run the same list (the limiter comes after the
  // health and metrics routes, which no direct path shares).
  const everyRequest: NodeHandler[] = [logger ? requestLog(logger) : assignRequestId()];
  if (metrics) {
    const outcomes = new Map<string, Counter<'outcome'>>([[`${AUTH_BASE}/login`, metrics.logins], [`${AUTH_BASE}/signup`, metrics.signups]]);
    everyRequest.push(measureRequests(metrics, outcomes));
  }
  everyRequest.push(securityHeaders(), corsPolicy(config.corsOrigin));
  const mapErrors = errorMapper(log, moduleErrors.statuses);
  const direct = new DirectRoutes({ before: [...everyRequest, limiters.global], errorMapper: mapErrors });

  for (const handler of everyRequest) app.use(handler);
  app.get('/healthz', liveness);
  app.get('/readyz', readinessCheck(readiness));
  if (metrics && metricsRoute) app.get('/metrics', serveMetrics(metrics.registry));
  // Introspection and the change feed: limited per service key rather than by the global limiter.
  addVerifierRoutes(app, AUTH_BASE, useCases, {
    globalLimiter: limiters.global,
    introspectLimiter: limiters.introspect,
    heartbeatMs: options.changeHeartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    changeStreamLimits: { ...DEFAULT_CHANGE_STREAM_LIMITS, ...options.changeStreamLimits },
    metrics: metrics ? new VerifierMetrics(metrics.registry) : undefined,
    direct: { routes: direct, before: everyRequest },
  });
  app.use(limiters.global);
  addDocsRoutes(app, apiReferenceJson); // GET /api/v1/openapi.json and /docs: public, rate limited, their own CSP
  if (consoleFiles) addConsoleRoutes(app, consoleFiles); // GET /console...: the same, with the console's CSP
  else logger?.warn('the console is not built (npm run console:build): /console answers 404');

  // Authentication belongs to the protected group itself, not to a path: see addRouteGroup for why it
  // is attached per matched route, which keeps an unknown path a 404 rather than a 401.
  const authenticateGuard = authenticate(useCases.authenticate);
  const protectedGuard = metrics ? countedAuthentication(authenticateGuard, metrics) : authenticateGuard;
  const recordRefusals = auditRefusals(useCases.recordRefusal, log, moduleErrors.refusals);
  addRouteGroup(app, [], publicRoutes(useCases, limiters), { mountPath: AUTH_BASE });
  addRouteGroup(app, [protectedGuard], protectedRoutes(useCases), {
    mountPath: AUTH_BASE,
    onError: [recordRefusals],
    direct,
  });
  // The modules' routes join the same two groups: the same guard, refusal recorder and direct path.
  for (const module of modules) {
    addRouteGroup(app, [], module.publicRoutes);
    addRouteGroup(app, [protectedGuard], module.protectedRoutes, { onError: [recordRefusals], direct });
  }

  app.use((_req, _res, next) => {
    next(new HttpError(404, 'Not found'));
  });
  app.use(mapErrors);
  return direct.listener(app);
}
