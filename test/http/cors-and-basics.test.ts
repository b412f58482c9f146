import { createMemoryStorage } from '../../src/adapters/persistence/memory/memory-storage';
import type { Storage } from '../../src/adapters/persistence/storage';
import { request } from '../support/contract-request';
import { buildTestApp, TEST_CORS_ORIGIN } from '../support/http-app';
import { AUTH, bearer, expectError, PASSWORD, signupOwner } from '../support/http-fixtures';
import { uniqueEmail } from '../support/test-use-cases';

describe('GET /healthz', () => {
  it('answers 200 {status: ok} without credentials', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('CORS', () => {
  it('echoes the configured origin exactly, with Vary: Origin', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/healthz').set('Origin', TEST_CORS_ORIGIN);
    expect(res.headers['access-control-allow-origin']).toBe(TEST_CORS_ORIGIN);
    expect(res.headers['vary']).toMatch(/\bOrigin\b/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it.each([
    'http://evil.example',
    'http://localhost:5174',
    'https://localhost:5173',
    'http://localhost:5173.evil.example',
    'null',
  ])('sends no Access-Control-Allow-Origin to %s, but still Vary: Origin', async (origin) => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/healthz').set('Origin', origin);
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['vary']).toMatch(/\bOrigin\b/);
  });

  it('never answers with a wildcard, not even without an Origin header', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).get('/healthz');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers a preflight from the allowed origin with 204 and the allowed methods and headers', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).options(`${AUTH}/invites/abc`)
      .set('Origin', TEST_CORS_ORIGIN)
      .set('Access-Control-Request-Method', 'DELETE')
      .set('Access-Control-Request-Headers', 'authorization,x-api-key,content-type');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(TEST_CORS_ORIGIN);
    expect(res.headers['access-control-allow-methods']).toBe('GET,POST,PATCH,DELETE,OPTIONS');
    expect(res.headers['access-control-allow-headers']).toBe('Content-Type,Authorization,x-api-key,X-Device-Proof');
    expect(res.headers['vary']).toMatch(/\bOrigin\b/);
  });

  it('answers a preflight from another origin without allowing it', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).options(`${AUTH}/me`)
      .set('Origin', 'http://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets a browser read the rate-limit headers, and the device proof a sign-in hands back', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post(`${AUTH}/login`).set('Origin', TEST_CORS_ORIGIN).send({});
    expect(res.headers['access-control-expose-headers']).toBe('RateLimit,RateLimit-Policy,Retry-After,X-Device-Proof');
  });

  it('uses the configured origin, not a built-in one', async () => {
    const { app } = await buildTestApp({ corsOrigin: 'https://app.example.com' });
    const allowed = await request(app).get('/healthz').set('Origin', 'https://app.example.com');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const old = await request(app).get('/healthz').set('Origin', TEST_CORS_ORIGIN);
    expect(old.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('Unknown routes', () => {
  it.each([
    ['get', `${AUTH}/nope`],
    ['get', '/nope'],
    ['get', '/'],
    ['post', `${AUTH}/me`],
    ['get', `${AUTH}/login`],
    ['delete', `${AUTH}/invites`],
    ['get', `${AUTH}/invites/x/y`],
    ['post', '/api/v2/auth/login'],
  ] as const)('answers %s %s with 404 JSON, without asking for credentials', async (method, path) => {
    const { app } = await buildTestApp();
    expectError(await request(app)[method](path), 404, 'Not found');
  });

  it('answers 404 also with valid credentials', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    expectError(await request(app).get(`${AUTH}/nope`).set(bearer(owner)), 404, 'Not found');
  });

  it('answers a path with broken percent-encoding with 400 JSON', async () => {
    const { app } = await buildTestApp();
    expectError(await request(app).delete(`${AUTH}/invites/%E0%A4%A`), 400, 'Bad Request');
  });
});

describe('Response hygiene', () => {
  it('sends neither X-Powered-By nor ETag, on success or failure', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const responses = [
      await request(app).get('/healthz'),
      await request(app).get(`${AUTH}/me`).set(bearer(owner)),
      await request(app).get(`${AUTH}/invites`).set(bearer(owner)),
      await request(app).post(`${AUTH}/login`).send({ email: owner.email, password: PASSWORD }),
      await request(app).post(`${AUTH}/login`).send({ email: uniqueEmail(), password: PASSWORD }),
      await request(app).get('/nope'),
      await request(app).options(`${AUTH}/me`).set('Origin', TEST_CORS_ORIGIN).set('Access-Control-Request-Method', 'GET'),
    ];
    for (const res of responses) {
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['etag']).toBeUndefined();
    }
  });

  it('answers an unexpected failure with an opaque 500 and hands the error to the log', async () => {
    const failure = new Error('connection to db.internal:5432 refused (password=hunter2)');
    const storage = createMemoryStorage();
    const broken: Storage = { ...storage, repos: { ...storage.repos, users: { ...storage.repos.users, findByEmail: async () => { throw failure; } } } };
    const { app, logged } = await buildTestApp({}, { storage: broken });

    const res = await request(app).post(`${AUTH}/login`).send({ email: uniqueEmail(), password: PASSWORD });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'Internal server error' });
    expect(res.text).not.toContain('hunter2');
    expect(logged).toEqual([failure]);
  });

  it('logs nothing for the expected refusals', async () => {
    const { app, logged } = await buildTestApp();
    await request(app).get(`${AUTH}/me`);
    await request(app).post(`${AUTH}/login`).set('Content-Type', 'application/json').send('{');
    await request(app).get('/nope');
    expect(logged).toEqual([]);
  });
});

describe('security headers', () => {
  it("sends helmet's API headers on every answer, errors included", async () => {
    const { app } = await buildTestApp();
    for (const res of [await request(app).get('/healthz'), await request(app).get('/api/v1/auth/me')]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
