import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import type { NodeHandler } from '../fast-path/node-handler';
import type { LimiterName } from './rate-limits';
import { contextOf } from '../request-context';

/** Seconds: from a cached /me (well under a millisecond) to a login's scrypt (~0.15 s) and a stuck database. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type AuthenticationMethod = 'jwt' | 'api_key' | 'none';

/**
 * The service's own metrics, on a registry the caller owns (main makes one per process, tests one
 * per app), so that building many apps never registers a name twice. Counted in the HTTP adapter,
 * where the outcome of each request is known; the use-cases know nothing of metrics.
 */
export class HttpMetrics {
  readonly requestDuration: Histogram<'method' | 'route' | 'status'>;
  readonly authentications: Counter<'method' | 'outcome' | 'reason'>;
  readonly rateLimitRejections: Counter<'limiter'>;
  readonly logins: Counter<'outcome'>;
  readonly signups: Counter<'outcome'>;

  constructor(readonly registry: Registry) {
    const registers = [registry];
    this.requestDuration = new Histogram({
      name: 'portcullis_http_request_duration_seconds',
      help: 'Time from receiving a request to finishing its response, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.authentications = new Counter({
      name: 'portcullis_authentications_total',
      help: 'Authentication checks on protected routes, by credential (jwt, api_key, none), outcome and reason',
      labelNames: ['method', 'outcome', 'reason'],
      registers,
    });
    this.rateLimitRejections = new Counter({
      name: 'portcullis_rate_limit_rejections_total',
      help: 'Requests refused 429 by a rate limiter (global, login, signup)',
      labelNames: ['limiter'],
      registers,
    });
    this.logins = new Counter({
      name: 'portcullis_logins_total',
      help: 'Login requests by outcome',
      labelNames: ['outcome'],
      registers,
    });
    this.signups = new Counter({
      name: 'portcullis_signups_total',
      help: 'Signup requests by outcome',
      labelNames: ['outcome'],
      registers,
    });
  }

  rateLimited(limiter: LimiterName): void {
    this.rateLimitRejections.inc({ limiter });
  }
}

/** A login's or signup's outcome, from its status: the error mapper has already chosen the status per cause. */
export function outcomeOf(status: number): string {
  if (status < 400) return 'success';
  switch (status) {
    case 400: case 413: case 415: return 'invalid_input';
    case 401: return 'invalid_credentials';
    case 409: return 'conflict';
    case 429: return 'throttled';
    case 503: return 'unavailable';
    default: return status >= 500 ? 'error' : 'rejected';
  }
}

// Status codes as label values, made once rather than per request.
const STATUS_LABELS = Array.from({ length: 600 }, (_, code) => String(code));

/**
 * Times every request and counts logins and signups. `outcomeCounters` maps a route pattern to the
 * counter of its outcomes. One listener per request, on 'finish' only: a response the client gave
 * up on is not observed (its status would be a guess).
 */
export function measureRequests(metrics: HttpMetrics, outcomeCounters: ReadonlyMap<string, Counter<'outcome'>>): NodeHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const { route } = contextOf(req);
      const status = res.statusCode;
      metrics.requestDuration.observe(
        { method: req.method ?? '', route, status: STATUS_LABELS[status] ?? String(status) },
        (performance.now() - started) / 1000,
      );
      outcomeCounters.get(route)?.inc({ outcome: outcomeOf(status) });
    });
    next();
  };
}

/** GET /metrics: the registry in Prometheus's text format. */
export function serveMetrics(registry: Registry): RequestHandler {
  return async (_req, res) => {
    const body = await registry.metrics();
    res.status(200).set('Content-Type', registry.contentType).set('Cache-Control', 'no-store').send(body);
  };
}
