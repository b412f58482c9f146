import http from 'node:http';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { securityHeaders } from '../../src/adapters/http/middleware/security-headers';
import { buildTestApp } from '../support/http-app';
import { AUTH, bearer, signupOwner } from '../support/http-fixtures';

const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Headers that only mean something for an HTML page in a browser (docs/security.md, "Security headers"). */
const PAGE_HEADERS = [
  'cross-origin-opener-policy', 'cross-origin-embedder-policy', 'origin-agent-cluster', 'referrer-policy',
  'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection', 'x-powered-by',
];

describe('security headers for a JSON API', () => {
  it('every answer (a token, a refusal, a 404, a health check) carries the API set and none of the page headers', async () => {
    const { app } = await buildTestApp();
    const owner = await signupOwner(app);
    const answers = [
      await request(app).get(`${AUTH}/me`).set(bearer(owner)),
      await request(app).get(`${AUTH}/me`),
      await request(app).get('/nope'),
      await request(app).get('/healthz'),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 401, 404, 200]);
    for (const res of answers) {
      expect(res.headers).toMatchObject(API_HEADERS);
      for (const name of PAGE_HEADERS) expect(res.headers[name]).toBeUndefined();
    }
  });

  it('an answer carrying a token may not be stored by any cache', async () => {
    const { app } = await buildTestApp();
    const res = await request(app).post(`${AUTH}/signup`).send({ email: `cache-${Date.now()}@example.com`, password: 'a long enough password', tenant_name: 'Cache Co' });
    expect(res.status).toBe(201);
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('securityHeaders on its own', () => {
  it('writes exactly the API set on a bare Node response, nothing more', async () => {
    const handler = securityHeaders();
    const server = http.createServer((req, res) => {
      void handler(req as Parameters<typeof handler>[0], res, (err) => {
        res.statusCode = err ? 500 : 204;
        res.end();
      });
    });
    const res = await supertest(server).get('/');
    expect(res.status).toBe(204);
    const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
    const written = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !transport.has(name)));
    expect(written).toEqual(API_HEADERS);
  });
});
