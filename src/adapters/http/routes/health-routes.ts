import type { Registry } from 'prom-client';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/http-error';
import type { Readiness } from './readiness';
import { bytes, json, type Route } from './route';

const NO_STORE = { 'Cache-Control': 'no-store' } as const;

/**
 * The probes, before any rate limit (the `probe` group):
 * - GET /healthz, liveness: the process is up and its event loop answers; no dependency is asked,
 *   so a database outage never gets the instance restarted (a restart would not bring the database back).
 * - GET /readyz, readiness: 200 when the probe's checks all pass; otherwise 503 with the failing
 *   checks and a Retry-After, so a load balancer stops sending traffic here until it passes again.
 * - GET /metrics, when the metrics are served on this port.
 */
export function probeRoutes(readiness: Readiness, metrics: Registry | undefined): Route[] {
  const routes: Route[] = [
    { method: 'get', path: '/healthz', group: 'probe', handle: () => json(200, { status: 'ok' }, NO_STORE) },
    {
      method: 'get', path: '/readyz', group: 'probe',
      handle: async () => {
        const { ready, checks } = await readiness.check();
        if (ready) return json(200, { status: 'ready', checks }, NO_STORE);
        return json(503, { error: 'Service unavailable', status: 'not ready', checks }, {
          ...NO_STORE, 'Retry-After': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS),
        });
      },
    },
  ];
  if (metrics) routes.push(metricsRoute(metrics));
  return routes;
}

/** GET /metrics: Prometheus's text format, on the main port or on METRICS_PORT's own app. */
export function metricsRoute(registry: Registry): Route {
  return {
    method: 'get', path: '/metrics', group: 'probe',
    handle: async () => bytes(200, await registry.metrics(), registry.contentType, NO_STORE),
  };
}
