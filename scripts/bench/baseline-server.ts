/**
 * The baseline: a bare Express 5 app answering GET /api/v1/auth/me with the same JSON body as the
 * service's /me, and nothing else (no security headers, CORS, rate limit, authentication; Express's
 * defaults left as they are). Its own process, so its RSS and event loop are its own.
 *
 * Env: BENCH_ME_BODY, the JSON body to send (run.ts passes the service's real /me answer).
 */
import express from 'express';
import { announceReady, describeLaunch, memoryBreakdown, serveBenchChannel } from './child-channel';
import { AUTH_BASE } from './protocol';

const body: unknown = JSON.parse(process.env['BENCH_ME_BODY'] ?? '{"tenant_id":"","user_id":"","role":"owner"}');

const app = express();
app.get(`${AUTH_BASE}/me`, (_req, res) => {
  res.status(200).json(body);
});

const server = app.listen(0, '127.0.0.1', () => announceReady(server));
serveBenchChannel(
  server,
  () => ({ location: 'none', hashScheme: 'none', threadPoolSize: Number(process.env['UV_THREADPOOL_SIZE'] ?? 4), launch: describeLaunch(), serverErrors: 0, memory: memoryBreakdown() }),
  async () => undefined,
);
