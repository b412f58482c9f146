import express from 'express';
import type { Registry } from 'prom-client';
import { errorMapper } from '../errors/error-mapper';
import { metricsRoute } from './health-routes';
import type { NodeHandler } from '../fast-path/node-handler';
import { type GroupSteps, RouteTable } from './route-table';

/**
 * The app for METRICS_PORT: GET /metrics and nothing else, so the port can be opened to the
 * scraper alone while the main port faces clients.
 */
export function createMetricsApp(registry: Registry): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // One probe route: no guards, limits or error handlers of any group apply.
  const none: GroupSteps = { guards: [], onError: [] };
  const pass: NodeHandler = (_req, _res, next) => next();
  const table = new RouteTable({
    groups: { probe: none, service: none, page: none, public: none, protected: none },
    limiters: { login: pass, signup: pass, introspect: pass, recovery: pass, sso: pass },
    recentAuthentication: pass,
    before: [],
    globalLimiter: pass,
    errorMapper: errorMapper(() => undefined, {}),
    trust: () => false,
  });
  table.add([metricsRoute(registry)]);
  table.mount(app);
  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found' });
  });
  return app;
}
