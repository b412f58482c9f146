import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { Storage } from '../../src/adapters/persistence/storage';
import type { RequestListener } from 'node:http';
import { MemoryStore, type IncrementResponse, type Store } from 'express-rate-limit';
import { Registry } from 'prom-client';
import supertest, { type Response } from 'supertest';
import { request } from '../support/contract-request';
import express from 'express';
import type { NodeErrorHandler, NodeHandler } from '../../src/adapters/http/fast-path/node-handler';
import { json, route } from '../../src/adapters/http/routes/route';
import { RouteTable } from '../../src/adapters/http/routes/route-table';
import { HttpMetrics } from '../../src/adapters/http/middleware/http-metrics';
import { buildTestApp, TEST_CORS_ORIGIN, GENEROUS_RATE_LIMITS } from '../support/http-app';
import { AUTH, bearer, createApiKey, joinWithRole, signupOwner } from '../support/http-fixtures';
import { captureLog } from '../support/log-capture';

/**
 * A route without path parameters is answered without Express when the method and URL are exactly
 * its own (src/adapters/http/routes/route-table.ts); any other spelling of the same route goes through Express.
 * Both ways must give the same answer: asked both ways, every case here must match in status, body
 * and every header, but for the values that differ from one request to the next.
 */
const DIRECT_PATHS = [`${AUTH}/me`, `${AUTH}/invites`, `${AUTH}/members`, `${AUTH}/api-keys`] as const;

/** The same route through Express: a query string neither route reads keeps the URL from matching exactly. */
const throughExpress = (path: string): string => `${path}?via=express`;

/** Headers with the values that change per request blanked (their presence still counts): the date, the request id, the count left. */
function comparable(res: Response): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...res.headers };
  for (const name of ['date', 'x-request-id']) if (name in headers) headers[name] = 'N';
  if (typeof headers['ratelimit'] === 'string') headers['ratelimit'] = headers['ratelimit'].replace(/r=\d+/, 'r=N').replace(/t=\d+/, 't=N');
  if (typeof headers['retry-after'] === 'string') headers['retry-after'] = 'N';
  return { status: res.status, headers, body: res.text.replace(/retry after \d+ seconds/, 'retry after N seconds') };
}

async function bothWays(app: RequestListener, path: string, headers: Record<string, string> = {}): Promise<[Response, Response]> {
  const direct = await request(app).get(path).set(headers);
  const viaExpress = await request(app).get(throughExpress(path)).set(headers);
  return [direct, viaExpress];
}

async function expectSameAnswer(app: RequestListener, path: string, headers: Record<string, string> = {}): Promise<Response> {
  const [direct, viaExpress] = await bothWays(app, path, headers);
  expect(comparable(direct)).toEqual(comparable(viaExpress));
  return direct;
}

describe('direct routes answer as Express answers the same route', () => {
  it.each(DIRECT_PATHS)('%s: with a bearer token, an API key, none, a bad one, and from the allowed origin', async (path) => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const key = await createApiKey(app, owner);

    expect((await expectSameAnswer(app, path, bearer(owner))).status).toBe(200);
    expect((await expectSameAnswer(app, path, { 'x-api-key': key })).status).toBe(200);
    expect((await expectSameAnswer(app, path)).status).toBe(401);
    expect((await expectSameAnswer(app, path, { Authorization: 'Bearer not.a.token' })).status).toBe(401);
    expect((await expectSameAnswer(app, path, { 'x-api-key': 'pk_nonsense' })).status).toBe(401);
    const fromBrowser = await expectSameAnswer(app, path, { ...bearer(owner), Origin: TEST_CORS_ORIGIN });
    expect(fromBrowser.headers['access-control-allow-origin']).toBe(TEST_CORS_ORIGIN);
  });

  it('GET /invites refused for a role: the same 403, and an access.denied event each way', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const viewer = await joinWithRole(app, owner, 'viewer');
    expect((await expectSameAnswer(app, `${AUTH}/invites`, bearer(viewer))).status).toBe(403);

    const trail = await request(app).get(`${AUTH}/audit-events?action=access.denied`).set(bearer(owner));
    const denied = trail.body.events as Array<{ actor_user_id: string; details: unknown }>;
    expect(denied).toHaveLength(2);
    for (const event of denied) expect(event).toMatchObject({ actor_user_id: viewer.userId, details: { reason: 'role', required_role: 'admin' } });
  });

  it.each(DIRECT_PATHS)('%s: the same 429 once the global limit is spent, counted in one bucket', async (path) => {
    const { app } = await buildTestApp({ rateLimits: { ...GENEROUS_RATE_LIMITS, global: 3 } });
    const [first, second] = await bothWays(app, path); // 2 of 3
    expect(comparable(first)).toEqual(comparable(second));
    const third = await request(app).get(path);
    expect(third.status).toBe(401);
    const [direct, viaExpress] = await bothWays(app, path);
    expect(direct.status).toBe(429);
    expect(comparable(direct)).toEqual(comparable(viaExpress));
  });

  it.each(DIRECT_PATHS)('%s: behind a trusted proxy, the client address from X-Forwarded-For keys the limit, as through Express', async (path) => {
    const { app } = await buildTestApp({ trustProxy: 1, rateLimits: { ...GENEROUS_RATE_LIMITS, global: 1 } });
    const from = (address: string, url: string = path) => request(app).get(url).set('X-Forwarded-For', address);
    expect((await from('203.0.113.1')).status).toBe(401);
    expect((await from('203.0.113.1')).status).toBe(429);
    expect((await from('203.0.113.1', throughExpress(path))).status).toBe(429); // one bucket, whichever way
    expect((await from('203.0.113.2')).status).toBe(401); // another client, its own bucket
    expect((await from('203.0.113.3', throughExpress(path))).status).toBe(401);
    expect((await from('203.0.113.3')).status).toBe(429);
  });

  it.each(DIRECT_PATHS)('%s: the same 503 when the rate-limit store fails', async (path) => {
    class BrokenStore implements Store {
      increment(): Promise<IncrementResponse> { return Promise.reject(new Error('connect ECONNREFUSED')); }
      decrement(): void {}
      resetKey(): void {}
    }
    const { app, logged } = await buildTestApp({ rateLimitStore: (name) => (name === 'global' ? new BrokenStore() : new MemoryStore()) });
    expect((await expectSameAnswer(app, path)).status).toBe(503);
    expect(logged).toHaveLength(2);
  });

  it('the same opaque 500 when a use-case fails unexpectedly, logged each way', async () => {
    const failure = new Error('boom');
    const storage = createMemoryStorage();
    let failing = false;
    const broken: Storage = {
      ...storage,
      repos: { ...storage.repos, users: { ...storage.repos.users, findAuthState: async (...args: Parameters<Storage['repos']['users']['findAuthState']>) => {
        if (failing) throw failure;
        return storage.repos.users.findAuthState(...args);
      } } },
    };
    const { app, logged } = await buildTestApp({}, { storage: broken });
    const owner = await signupOwner(app);
    failing = true;
    const res = await expectSameAnswer(app, `${AUTH}/me`, { Authorization: `Bearer ${owner.token}` });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error' });
    expect(logged).toEqual([failure, failure]);
  });

  it('the same request log line and the same metric series each way', async () => {
    const { lines, logger } = captureLog();
    const metrics = new HttpMetrics(new Registry());
    const { app } = await buildTestApp({}, {}, { logger, metrics });
    const owner = await signupOwner(app);
    lines.length = 0;

    const [direct, viaExpress] = await bothWays(app, `${AUTH}/me`, bearer(owner));
    await new Promise((resolve) => setImmediate(resolve));
    const requestLines = lines.filter((line) => line.msg === 'request');
    expect(requestLines.map((line) => line.reqId)).toEqual([direct.headers['x-request-id'], viaExpress.headers['x-request-id']]);
    const [fromDirect, fromExpress] = requestLines.map(({ reqId: _id, time: _time, durationMs: _ms, ...rest }) => rest);
    expect(fromDirect).toEqual({ level: 'info', service: 'portcullis', method: 'GET', route: `${AUTH}/me`, status: 200, tenantId: owner.tenantId, userId: owner.userId, msg: 'request' });
    expect(fromExpress).toEqual(fromDirect);

    const text = (await request(app).get('/metrics')).text;
    expect(text).toContain(`portcullis_http_request_duration_seconds_count{method="GET",route="${AUTH}/me",status="200"} 2`);
    expect(text).toContain('portcullis_authentications_total{method="jwt",outcome="success",reason="ok"} 2');
  });

  it('HEAD, other spellings and other methods of the path are Express\'s, with the same outcome', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const head = await request(app).head(`${AUTH}/me`).set(bearer(owner));
    expect(head.status).toBe(200);
    expect(head.text).toBeFalsy();
    for (const spelling of [`${AUTH}/me/`, '/API/V1/AUTH/ME']) {
      const res = await request(app).get(spelling).set(bearer(owner));
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 200, body: { tenant_id: owner.tenantId, user_id: owner.userId, role: 'owner' } });
    }
    expect((await request(app).post(`${AUTH}/me`).set(bearer(owner))).status).toBe(404);
  });
});

describe('RouteTable', () => {
  const none = { guards: [], onError: [] };

  function table(options: { before?: NodeHandler[]; onError?: NodeErrorHandler[]; errorMapper?: NodeErrorHandler } = {}) {
    return new RouteTable({
      groups: { probe: none, service: none, page: none, public: { guards: [], onError: options.onError ?? [] }, protected: none },
      limiters: { login: pass, signup: pass, introspect: pass, recovery: pass, sso: pass },
      recentAuthentication: pass,
      before: options.before ?? [],
      globalLimiter: pass,
      errorMapper: options.errorMapper ?? ((_err, _req, res) => { res.statusCode = 500; res.end(); }),
      trust: () => true,
    });
  }

  /** A stand-in for the rest of the app: Express, answering 418 to whatever reaches it. */
  function listenerOf(routes: RouteTable): RequestListener {
    const app = express();
    app.use((_req, res) => { res.status(418).end(); });
    const listener = routes.listener(app);
    return listener;
  }

  it('runs the app-level handlers, then the route, for its method on the exact path; everything else goes to the app', async () => {
    const seen: string[] = [];
    const routes = table({ before: [(req, _res, next) => { seen.push(`before ${req.ip}`); next(); }] });
    routes.add([route({ method: 'get', path: '/x', group: 'public', handle: ({ params, origin }) => {
      seen.push(`route ${JSON.stringify(params)} ${origin.clientAddress}`);
      return json(200, { answered: 'direct' });
    } })]);
    const listener = listenerOf(routes);

    const direct = await supertest(listener).get('/x').set('X-Forwarded-For', '203.0.113.9');
    expect([direct.status, direct.body]).toEqual([200, { answered: 'direct' }]);
    expect(seen).toEqual(['before 203.0.113.9', 'route {} 203.0.113.9']); // req.ip as the trust function decides
    for (const res of [await supertest(listener).get('/x/'), await supertest(listener).get('/x?a=1'), await supertest(listener).head('/x'), await supertest(listener).post('/x')]) {
      expect(res.status).toBe(418);
    }
    expect(seen).toHaveLength(2);
  });

  it("passes a thrown or rejected error through the group's error handlers, then the error mapper; a route declared twice is refused", async () => {
    const order: string[] = [];
    const routes = table({
      onError: [(err, _req, _res, next) => { order.push('observer'); next(err); }],
      errorMapper: (err, _req, res) => { order.push(`mapper ${(err as Error).message}`); res.statusCode = 500; res.end(); },
    });
    routes.add([
      route({ method: 'get', path: '/throws', group: 'public', handle: () => { throw new Error('thrown'); } }),
      route({ method: 'get', path: '/rejects', group: 'public', handle: async () => { throw new Error('rejected'); } }),
    ]);
    const listener = listenerOf(routes);

    expect((await supertest(listener).get('/throws')).status).toBe(500);
    expect((await supertest(listener).get('/rejects')).status).toBe(500);
    expect(order).toEqual(['observer', 'mapper thrown', 'observer', 'mapper rejected']);
    expect(() => routes.add([route({ method: 'get', path: '/THROWS', group: 'public', handle: () => json(200, {}) })])).toThrow(/declared twice/);
  });
});

const pass: NodeHandler = (_req, _res, next) => next();
