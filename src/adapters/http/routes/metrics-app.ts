import express from 'express';
import type { Registry } from 'prom-client';
import { serveMetrics } from '../middleware/http-metrics';

/**
 * The app for METRICS_PORT: GET /metrics and nothing else, so the port can be opened to the
 * scraper alone while the main port faces clients.
 */
export function createMetricsApp(registry: Registry): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', serveMetrics(registry));
  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found' });
  });
  return app;
}
