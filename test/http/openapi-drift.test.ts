import express from 'express';
import supertest from 'supertest';
import { request } from '../support/contract-request';
import { OpenApiDriftError, openApiViolations, type Exchange } from '../support/openapi-validator';

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

function exchange(overrides: Partial<Exchange>): Exchange {
  return { method: 'GET', target: '/api/v1/auth/me', status: 200, headers: JSON_TYPE, body: '{"tenant_id":"t","user_id":"u","role":"owner"}', ...overrides };
}

/** A throwaway app that answers like Portcullis, except where a test makes it drift. */
function driftingApp(answer: (res: express.Response) => void): express.Express {
  const app = express();
  app.get('/api/v1/auth/me', (_req, res) => answer(res));
  return app;
}

describe('the tests\' request: every answer is checked against docs/openapi.yaml', () => {
  it('fails a request whose answer drifts from the document, naming the departure', async () => {
    const app = driftingApp((res) => {
      res.status(200).json({ tenant_id: 42, user_id: 'u', role: 'owner' });
    });
    const sent = request(app).get('/api/v1/auth/me').then();
    await expect(sent).rejects.toThrow(OpenApiDriftError);
    await expect(request(app).get('/api/v1/auth/me').then()).rejects.toThrow(/GET \/api\/v1\/auth\/me answered 200.*\n.*\/tenant_id must be string/);
  });

  it('also fails a request that uses .expect(), after the test\'s own expectations pass', async () => {
    const app = driftingApp((res) => {
      res.status(200).json({ tenant_id: 't', user_id: 'u', role: 'owner', password_hash: 'scrypt$...' });
    });
    await expect(request(app).get('/api/v1/auth/me').expect(200).then()).rejects.toThrow(/must NOT have additional properties.*password_hash/);
  });

  it('passes the same answer when it keeps to the document', async () => {
    const app = driftingApp((res) => {
      res.status(200).json({ tenant_id: 't', user_id: 'u', role: 'owner' });
    });
    await request(app).get('/api/v1/auth/me').expect(200);
  });

  it('names the test\'s own failed expectation first, when both it and the document are departed from', async () => {
    const app = driftingApp((res) => {
      res.status(418).send('teapot');
    });
    await expect(request(app).get('/api/v1/auth/me').expect(200).then()).rejects.toThrow(/expected 200 "OK", got 418/);
    await expect(request(app).get('/api/v1/auth/me').then()).rejects.toThrow(/status 418 is not documented for getMe/);
  });

  it('is left out by calling supertest itself, for an app that is not Portcullis', async () => {
    const app = driftingApp((res) => {
      res.status(418).send('teapot');
    });
    await supertest(app).get('/api/v1/auth/me').expect(418);
  });
});

describe('what the validator refuses', () => {
  it.each<[string, Partial<Exchange>, RegExp]>([
    ['a status the operation does not document', { status: 418 }, /status 418 is not documented for getMe/],
    ['a Content-Type the status does not document', { headers: { 'content-type': 'text/plain' }, body: 'ok' }, /Content-Type text\/plain is not documented/],
    ['a media type parameter the document names, with another value', { target: '/metrics', headers: { 'content-type': 'text/plain; version=1.0.0; charset=utf-8' }, body: '# EOF' }, /Content-Type text\/plain; version=1.0.0; charset=utf-8 is not documented \(documented: text\/plain; version=0.0.4\)/],
    ['a body that is not JSON', { body: '{tenant' }, /the body is not JSON/],
    ['a missing required field', { body: '{"tenant_id":"t","user_id":"u"}' }, /must have required property 'role'/],
    ['an error message the document does not list', { status: 401, body: '{"error":"Unauthorized"}' }, /\/error must be equal to one of the allowed values/],
    ['a 429 without Retry-After', { status: 429, body: '{"error":"Too many requests, retry after 3 seconds"}', headers: { ...JSON_TYPE, ratelimit: '"100-in-1min"; r=0; t=3', 'ratelimit-policy': '"100-in-1min"; q=100; w=60' } }, /header Retry-After is required and missing/],
    ['a Retry-After of 0', { status: 503, body: '{"error":"Service unavailable"}', headers: { ...JSON_TYPE, 'retry-after': '0' } }, /header Retry-After: .* must match pattern/],
    ['an unknown route answered with anything but 404 Not found', { target: '/api/v1/auth/nope', body: '{}' }, /no documented operation matches, so the answer must be one of 404, 429, 503, not 200/],
    ['an unknown route whose 404 has another message', { target: '/nope', status: 404, body: '{"error":"Cannot GET /nope"}' }, /\/error must be equal to constant/],
    ['a method the path does not document', { method: 'PUT', status: 200 }, /must be one of 404, 429, 503, not 200/],
    ['a preflight answered with a body', { method: 'OPTIONS', status: 200, body: 'GET,POST' }, /OPTIONS must be answered 204 without a body/],
  ])('refuses %s', (_name, overrides, message) => {
    const problems = openApiViolations(exchange(overrides));
    expect(problems.join('\n')).toMatch(message);
  });

  it.each<[string, Partial<Exchange>]>([
    ['a documented answer', {}],
    ['a path in other letter case with a trailing slash and a query', { target: '/API/V1/AUTH/ME/?x=1' }],
    ['HEAD answered like GET, without a body', { method: 'HEAD', body: '' }],
    ['an unknown route answered 404 Not found', { target: '/api/v1/auth/me;x=1', status: 404, body: '{"error":"Not found"}' }],
    ['a parameter Express cannot decode answered 400 Bad Request', { method: 'GET', target: '/api/v1/auth/invites/%E0%A4%A', status: 400, body: '{"error":"Bad Request"}' }],
    ['the Prometheus text format, its charset free', { target: '/metrics', headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' }, body: '# HELP up 1\n' }],
    ['a 503 with Retry-After', { status: 503, body: '{"error":"Service unavailable"}', headers: { ...JSON_TYPE, 'retry-after': '5' } }],
    ['a preflight', { method: 'OPTIONS', status: 204, body: '' }],
  ])('accepts %s', (_name, overrides) => {
    expect(openApiViolations(exchange(overrides))).toEqual([]);
  });
});
