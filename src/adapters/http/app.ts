import express from 'express';
import type { UseCases } from '../../application/use-cases';
import { authenticate } from './authenticate';
import { corsPolicy } from './cors';
import { errorMapper } from './error-mapper';
import { HttpError } from './http-error';
import { createRateLimiters, type RateLimitConfig, type RateLimitStoreFactory } from './rate-limits';
import { routeGroup } from './route-group';
import { securityHeaders } from './security-headers';
import { docsRoutes } from './routes/docs-routes';
import { protectedRoutes } from './routes/protected-routes';
import { publicRoutes } from './routes/public-routes';

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

const AUTH_BASE = '/api/v1/auth';

function defaultLog(err: unknown): void {
  console.error(err);
}

/**
 * The order is the policy: CORS first (preflights answered before anything counts them, and even a
 * 429 carries CORS headers so a browser client can read it), /healthz before rate limits and
 * authentication, then the global limiter, the two route groups, 404, and the one error mapper.
 */
export function createApp(useCases: UseCases, config: HttpConfig, log: (err: unknown) => void = defaultLog): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // responses are per caller and never cached; an ETag only costs a hash
  if ((config.trustProxy as unknown) === true) throw new Error('trust proxy must be a hop count or a list of subnets, never true');
  if (config.trustProxy !== undefined && config.trustProxy !== false) app.set('trust proxy', config.trustProxy);

  const limiters = createRateLimiters(config.rateLimits, { store: config.rateLimitStore, log });

  app.use(securityHeaders());
  app.use(corsPolicy(config.corsOrigin));
  app.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.use(limiters.global);
  app.use(docsRoutes()); // GET /api/v1/openapi.json and /docs: public, rate limited, their own CSP

  // Authentication belongs to the protected group itself, not to a path: see routeGroup for why it
  // is attached per matched route, which keeps an unknown path a 404 rather than a 401.
  app.use(AUTH_BASE, routeGroup([], publicRoutes(useCases, limiters)));
  app.use(AUTH_BASE, routeGroup([authenticate(useCases.authenticate)], protectedRoutes(useCases)));

  app.use((_req, _res, next) => {
    next(new HttpError(404, 'Not found'));
  });
  app.use(errorMapper(log));
  return app;
}
