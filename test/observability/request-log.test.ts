import { request } from '../support/contract-request';
import { AUTH, bearer, createApiKey, createInvite, PASSWORD, signupOwner } from '../support/http-fixtures';
import { buildTestApp } from '../support/http-app';
import { captureLog } from '../support/log-capture';
import { uniqueEmail } from '../support/test-use-cases';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;


/** pino-http writes its line when the response has finished, just after supertest sees it. */
function requestLines(lines: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return lines.filter((line) => line.msg === 'request');
}

describe('request log', () => {
  it('writes one line per request: method, route pattern, status, duration and request id, and the caller once known', async () => {
    const { lines, logger } = captureLog();
    const { app } = await buildTestApp({}, {}, { logger });
    const owner = await signupOwner(app);
    const invite = await createInvite(app, owner);
    const listed = await request(app).get(`${AUTH}/invites`).set(bearer(owner));
    const id = (listed.body.invites as Array<{ id: string }>)[0]!.id;
    lines.length = 0;

    const res = await request(app).delete(`${AUTH}/invites/${id.toUpperCase()}?token=${invite.token}`).set(bearer(owner));
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.status).toBe(200);
    expect(requestLines(lines)).toEqual([{
      level: 'info',
      time: expect.any(Number),
      service: 'portcullis',
      reqId: res.headers['x-request-id'],
      method: 'DELETE',
      route: '/api/v1/auth/invites/:id',
      status: 200,
      durationMs: expect.any(Number),
      tenantId: owner.tenantId,
      userId: owner.userId,
      msg: 'request',
    }]);
  });

  it('names refused and unmatched requests by their pattern, never by the raw URL', async () => {
    const { lines, logger } = captureLog();
    const { app } = await buildTestApp({}, {}, { logger });
    await request(app).get('/API/V1/AUTH/ME/'); // case and a trailing slash: the same route
    await request(app).get(`${AUTH}/no-such-route?x=1`);
    await request(app).post(`${AUTH}/login`).send({ email: 'not an e-mail', password: 'x' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestLines(lines).map((line) => [line.method, line.route, line.status])).toEqual([
      ['GET', '/api/v1/auth/me', 401],
      ['GET', 'unmatched', 404],
      ['POST', '/api/v1/auth/login', 400],
    ]);
    expect(requestLines(lines).every((line) => line.tenantId === undefined)).toBe(true);
  });

  it('keeps a sane incoming x-request-id and answers with it; replaces anything else with a new UUID', async () => {
    const { lines, logger } = captureLog();
    const { app } = await buildTestApp({}, {}, { logger });
    const kept = await request(app).get('/healthz').set('x-request-id', 'lb-7f3a:2.1_X');
    expect(kept.headers['x-request-id']).toBe('lb-7f3a:2.1_X');
    for (const bad of ['a'.repeat(129), 'has space', 'quote"d', 'new\u00e9line', '']) {
      const res = await request(app).get('/healthz').set('x-request-id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
    }
    const fresh = await request(app).get('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(UUID);
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestLines(lines).map((line) => line.reqId)).toContain('lb-7f3a:2.1_X');
    expect(requestLines(lines).at(-1)!.reqId).toBe(fresh.headers['x-request-id']);
  });

  it('logs a failure under its request id, at error level, with the error', async () => {
    const { lines, logger } = captureLog();
    const onError: unknown[] = [];
    const { app, useCases } = await buildTestApp({}, {}, { logger, onError: (error) => onError.push(error) });
    jest.spyOn(useCases.listInvites, 'execute').mockRejectedValue(new Error('disk on fire'));
    const owner = await signupOwner(app);
    const res = await request(app).get(`${AUTH}/invites`).set(bearer(owner)).set('x-request-id', 'trace-1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.status).toBe(500);
    expect(lines.find((line) => line.msg === 'request failed')).toMatchObject({ level: 'error', reqId: 'trace-1', err: { message: 'disk on fire' } });
    expect(requestLines(lines).at(-1)).toMatchObject({ level: 'error', reqId: 'trace-1', status: 500 });
    expect(onError).toHaveLength(1);
  });

  it('never writes a credential: headers redacted at debug level, bodies and query strings never logged', async () => {
    const { raw, lines, logger } = captureLog('debug');
    const { app } = await buildTestApp({}, {}, { logger });
    const owner = await signupOwner(app);
    const apiKey = await createApiKey(app, owner);
    const invite = await createInvite(app, owner);
    const email = uniqueEmail('secret');
    const secrets = [owner.token, apiKey, invite.token, PASSWORD, 'session=cookie-secret-42'];

    await request(app).post(`${AUTH}/signup`).send({ email, password: PASSWORD, invite_token: invite.token });
    await request(app).post(`${AUTH}/login`).send({ email, password: PASSWORD });
    await request(app).get(`${AUTH}/me`).set(bearer(owner)).set('Cookie', 'session=cookie-secret-42');
    await request(app).get(`${AUTH}/me`).set('x-api-key', apiKey);
    await request(app).get(`${AUTH}/me?api_key=${apiKey}&token=${owner.token}`).set('Authorization', `Bearer ${owner.token}`);
    await request(app).post(`${AUTH}/login`).set('Content-Type', 'application/json').send(`{"password":"${PASSWORD}",`); // unparseable
    await new Promise((resolve) => setImmediate(resolve));

    const written = raw.join('\n');
    for (const secret of secrets) expect(written).not.toContain(secret);
    // The headers are there, with the credentials replaced.
    const withHeaders = requestLines(lines).filter((line) => line.headers !== undefined);
    expect(withHeaders.length).toBeGreaterThan(0);
    const headers = withHeaders.map((line) => line.headers as Record<string, string>);
    expect(headers.some((h) => h.authorization === '[Redacted]')).toBe(true);
    expect(headers.some((h) => h['x-api-key'] === '[Redacted]')).toBe(true);
    expect(headers.some((h) => h.cookie === '[Redacted]')).toBe(true);
    expect(headers.some((h) => typeof h['user-agent'] === 'string' || typeof h['host'] === 'string')).toBe(true);
  });

  it.each(['debug', 'trace'])('writes only allow-listed header values at %s level: a service key, a custom token header or a referer never appear', async (level) => {
    const { raw, lines, logger } = captureLog(level);
    const { app } = await buildTestApp({}, {}, { logger });
    const serviceKey = `pcsk_${'5e'.repeat(32)}`;
    const secrets = [serviceKey, 'custom-token-6d1f', 'upstream-session-77a2', 'join?token=0c9e', 'Basic cHJveHk6c2VjcmV0'];
    await request(app).post(`${AUTH}/introspect`).set('x-service-key', serviceKey).send({ token: 'x' });
    await request(app).get(`${AUTH}/changes`).set('X-Service-Key', serviceKey);
    await request(app).get('/healthz')
      .set('x-auth-token', 'custom-token-6d1f')
      .set('x-upstream-session', 'upstream-session-77a2')
      .set('referer', 'https://console.example/console/join?token=0c9e')
      .set('proxy-authorization', 'Basic cHJveHk6c2VjcmV0')
      .set('user-agent', 'probe/1.0');
    await new Promise((resolve) => setImmediate(resolve));

    const written = raw.join('\n');
    for (const secret of secrets) expect(written).not.toContain(secret);
    const headers = requestLines(lines).map((line) => line.headers as Record<string, string>);
    expect(headers).toHaveLength(3);
    // Present headers are named, and only the allow-listed ones keep their values.
    expect(headers[0]!['x-service-key']).toBe('[Redacted]');
    expect(headers[2]).toMatchObject({
      'x-auth-token': '[Redacted]', 'x-upstream-session': '[Redacted]', referer: '[Redacted]', 'proxy-authorization': '[Redacted]',
      'user-agent': 'probe/1.0',
    });
    expect(typeof headers[2]!.host).toBe('string');
  });

  it('redacts credentials in any object logged elsewhere (passwords, tokens, invite tokens, api keys)', () => {
    const { raw, logger } = captureLog();
    logger.info({ body: { email: 'a@example.com', password: 'hunter22', invite_token: 'f'.repeat(64) }, token: 'jwt.jwt.jwt', api_key: 'pcls_x' }, 'something');
    logger.info({ err: { message: 'bad json', body: '{"password":"hunter22"}' } }, 'parse');
    const written = raw.join('\n');
    for (const secret of ['hunter22', 'f'.repeat(64), 'jwt.jwt.jwt', 'pcls_x']) expect(written).not.toContain(secret);
    expect(written).toContain('a@example.com');
  });
});
