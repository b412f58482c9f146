import express from 'express';
import helmet from 'helmet';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { API_SECURITY_HEADERS } from '../../src/adapters/http/middleware/security-headers';
import { API_HELMET_OPTIONS } from '../support/helmet-options';
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

describe('the constants are what helmet itself writes', () => {
  it('helmet, run on a real response with the API options, sets exactly these headers and values', async () => {
    const app = express();
    app.disable('x-powered-by');
    app.use(helmet(API_HELMET_OPTIONS));
    app.get('/', (_req, res) => {
      res.set('Cache-Control', 'no-store').status(204).end();
    });
    const res = await supertest(app).get('/');
    const fromHelmet = Object.fromEntries(API_SECURITY_HEADERS.map(([name]) => [name.toLowerCase(), res.headers[name.toLowerCase()]]));
    expect(fromHelmet).toEqual(Object.fromEntries(API_SECURITY_HEADERS.map(([name, value]) => [name.toLowerCase(), value])));
    for (const name of PAGE_HEADERS) expect(res.headers[name]).toBeUndefined();
  });
});
