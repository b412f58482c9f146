import type { RequestHandler } from 'express';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/http-error';
import type { Readiness } from './readiness';

/**
 * GET /healthz: liveness. The process is up and its event loop answers; no dependency is asked, so
 * a database outage never gets the instance restarted (a restart would not bring the database back).
 */
export const liveness: RequestHandler = (_req, res) => {
  res.status(200).set('Cache-Control', 'no-store').json({ status: 'ok' });
};

/**
 * GET /readyz: readiness. 200 when the probe's checks all pass; otherwise 503 with the failing
 * checks and a Retry-After, so a load balancer stops sending traffic here until it passes again.
 */
export function readinessCheck(readiness: Readiness): RequestHandler {
  return async (_req, res) => {
    const { ready, checks } = await readiness.check();
    res.set('Cache-Control', 'no-store');
    if (ready) {
      res.status(200).json({ status: 'ready', checks });
    } else {
      res.status(503).set('Retry-After', String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS))
        .json({ error: 'Service unavailable', status: 'not ready', checks });
    }
  };
}
